/**
 * /api/events in-process (hono's app.request): snapshot, filter, resume, heartbeat.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../src/bus/create-event-bus.js';
import { parseConfig } from '../../../src/config/parse-config.js';
import type { HubEvent } from '../../../src/events/hub-event.js';
import { createApp } from '../../../src/http/create-app.js';
import { createHub, type Hub } from '../../../src/hub/create-hub.js';

const log = pino({ level: 'silent' });
let hub: Hub | undefined;
afterEach(async () => {
  await hub?.stop();
});

function setup(heartbeatMs?: number, replica?: string) {
  const bus = createEventBus<HubEvent>();
  // The app reads the config the hub puts in force, as in the service.
  let inForce = parseConfig({ mcpServers: {} }, null);
  const config = {
    get: () => inForce,
    set: (next: typeof inForce) => {
      inForce = next;
    },
  };
  hub = createHub({ log, bus, config, open: async () => Promise.reject(new Error('no upstreams in this test')) });
  const app = createApp({
    hub,
    config: config.get,
    bus,
    log,
    adminToken: 't',
    ...(heartbeatMs ? { heartbeatMs } : {}),
    ...(replica ? { replica } : {}),
  });
  return { bus, app };
}

async function read(response: Response, until: (text: string) => boolean): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text;
}

const removed = (server: string): HubEvent => ({ type: 'removed', server });

describe('GET /api/events', () => {
  it('sends a snapshot first, then live events filtered by ?server=', async () => {
    const { bus, app } = setup();
    const response = await app.request('/api/events?server=b', { headers: { authorization: 'Bearer t' } });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    bus.publish(removed('a'));
    bus.publish(removed('b'));
    const text = await read(response, (t) => t.includes('event: removed'));
    expect(text).toMatch(
      /^event: snapshot\ndata: \{"type":"snapshot","server":null,"servers":\[\],"replica":null\}\nid: [a-z0-9]+-0\n\n/,
    );
    expect(text).toContain('"server":"b"');
    expect(text).not.toContain('"server":"a"');
    expect(text).toMatch(
      /event: removed\ndata: \{"type":"removed","server":"b","at":"[^"]+","replica":null\}\nid: [a-z0-9]+-2/,
    );
  });

  it('names the replica the events happen on, in the snapshot and in each event (ADR 041)', async () => {
    const { bus, app } = setup(undefined, 'replica-7');
    const response = await app.request('/api/events', { headers: { authorization: 'Bearer t' } });
    bus.publish(removed('a'));
    const text = await read(response, (t) => t.includes('event: removed'));
    expect(text).toMatch(
      /^event: snapshot\ndata: \{"type":"snapshot","server":null,"servers":\[\],"replica":"replica-7"\}\n/,
    );
    expect(text).toMatch(/data: \{"type":"removed","server":"a","at":"[^"]+","replica":"replica-7"\}/);
    const ready = await app.request('/readyz', { headers: { authorization: 'Bearer t' } });
    expect(await ready.json()).toEqual({ status: 'ready', servers: 0, replica: 'replica-7' });
  });

  it('resumes after Last-Event-ID without a snapshot, and falls back to one when the id left the window', async () => {
    const { bus, app } = setup();
    for (const s of ['a', 'b', 'c']) bus.publish(removed(s));
    const resumed = await read(
      await app.request('/api/events', { headers: { authorization: 'Bearer t', 'last-event-id': `${bus.bootId}-1` } }),
      (t) => t.includes('"server":"c"'),
    );
    expect(resumed).not.toContain('snapshot');
    expect(resumed.indexOf('"server":"b"')).toBeLessThan(resumed.indexOf('"server":"c"'));
    expect(resumed).not.toContain('"server":"a"');
    for (const stale of ['garbage', 'otherboot-2', '2']) {
      const text = await read(
        await app.request('/api/events', { headers: { authorization: 'Bearer t', 'last-event-id': stale } }),
        (t) => t.includes('snapshot'),
      );
      expect(text).toContain('event: snapshot');
    }
    const all = await read(
      await app.request('/api/events?lastEventId=0', { headers: { authorization: 'Bearer t' } }),
      (t) => t.includes('"server":"c"'),
    );
    expect(all).not.toContain('snapshot');
    expect(all).toContain('"server":"a"');
  });

  it('sends heartbeat comments', async () => {
    const { app } = setup(20);
    const text = await read(await app.request('/api/events', { headers: { authorization: 'Bearer t' } }), (t) =>
      t.includes(': heartbeat'),
    );
    expect(text).toContain(': heartbeat');
  });

  it('needs the token', async () => {
    const { app } = setup();
    expect((await app.request('/api/events')).status).toBe(401);
  });

  it('filters by ?bot=: the servers in its view (as the config says now) and events naming the bot', async () => {
    const { bus, app } = setup();
    const off = { command: 'node', enabled: false };
    hub?.applyConfig(
      parseConfig(
        { mcpServers: { a: off, b: off, c: off }, bots: { scout: { removedServers: ['b'] }, other: {} } },
        null,
        {},
      ),
    );
    const response = await app.request('/api/events?bot=scout', { headers: { authorization: 'Bearer t' } });
    bus.publish(removed('b'));
    bus.publish(removed('a'));
    bus.publish({ type: 'bot_changed', server: null, bot: 'scout' } as unknown as HubEvent);
    bus.publish({ type: 'bot_changed', server: null, bot: 'other' } as unknown as HubEvent);
    bus.publish(removed('c'));
    const text = await read(response, (t) => t.includes('"server":"c"'));
    const snapshot = JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(text)?.[1] ?? '{}') as {
      servers: { name: string }[];
    };
    expect(snapshot.servers.map((s) => s.name)).toEqual(['a', 'c']);
    const live = text.slice(text.indexOf('\n\n') + 2);
    expect(live).toContain('"server":"a"');
    expect(live).not.toContain('"server":"b"');
    expect(live).toContain('"bot":"scout"');
    expect(live).not.toContain('"bot":"other"');
  });

  it('answers 404 for an unknown bot, inherited names included', async () => {
    const { app } = setup();
    for (const bot of ['ghost', 'constructor']) {
      const response = await app.request(`/api/events?bot=${bot}`, { headers: { authorization: 'Bearer t' } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { code: 'unknown_bot', message: `bot "${bot}" does not exist` },
      });
    }
  });
});
