/**
 * A client that stops reading its SSE stream (SPEC X8): a raw TCP client on 127.0.0.1 opens
 * the /mcp GET stream, reads the first event and then nothing, while events keep coming.
 * The service closes the stream once more than the bound is left unsent, rather than
 * queueing for ever, and a resume with Last-Event-ID gets every event the client missed.
 * The same for /api/events.
 */
import { connect, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { HubEvent } from '../../src/events/hub-event.js';
import { createApp } from '../../src/http/create-app.js';
import { createSseWriteGuard } from '../../src/http/io/sse-write-guard.js';
import { createSseEventLog } from '../../src/http/mcp/sse-event-log.js';
import { createHub, type Hub } from '../../src/hub/create-hub.js';
import { fetchInitialize } from '../support/initialize.js';
import { startTransportSession } from '../support/transport-session.js';

const BOUND = 64 * 1024;
/** Far past what the loopback's socket buffers take (a few MB): the old code queued all of it. */
const MAX_PRODUCED = 32 * 1024 * 1024;
const VERSION = '2025-11-25';

/** The ids of the SSE events in `text`, in order. */
const eventIds = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1] as string);

/** A raw GET on `url`: `until(re)` waits for what came to match; `stopReading()` takes nothing more. */
function rawGet(url: string, headers: Record<string, string>) {
  const { hostname, port, pathname } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  let seen = '';
  let waiter: { re: RegExp; resolve: (m: RegExpExecArray) => void } | null = null;
  const check = () => {
    const found = waiter?.re.exec(seen);
    if (waiter && found) {
      waiter.resolve(found);
      waiter = null;
    }
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.toString('latin1');
    check();
  };
  socket.on('data', onData);
  socket.on('error', () => undefined);
  const lines = Object.entries({ host: `${hostname}:${port}`, accept: 'text/event-stream', ...headers }).map(
    ([k, v]) => `${k}: ${v}\r\n`,
  );
  socket.write(`GET ${pathname} HTTP/1.1\r\n${lines.join('')}\r\n`);
  return {
    socket,
    until: (re: RegExp) =>
      new Promise<RegExpExecArray>((resolve) => {
        waiter = { re, resolve };
        check();
      }),
    /** From here on the client takes nothing: the kernel's buffers fill, then the service's. */
    stopReading() {
      socket.off('data', onData);
      socket.pause();
    },
  };
}

/** Read an SSE body until `done(text)`; then cancel it. */
async function readUntil(body: ReadableStream<Uint8Array>, done: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

const yieldToIo = () => new Promise((resolve) => setImmediate(resolve));

describe('a client that stops reading its SSE stream', () => {
  let hub: Hub | undefined;
  afterEach(async () => {
    await hub?.stop();
    hub = undefined;
  });

  it('/mcp GET stream: closed past the bound, and a resume with Last-Event-ID gets what it missed', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const guard = createSseWriteGuard({ maxUnsentBytes: () => BOUND, log });
    // A log that holds everything this test sends: what is tested is the stream, not the window.
    const eventLog = createSseEventLog({ maxBytes: 2 * MAX_PRODUCED, maxEvents: 100_000 });
    const s = await startTransportSession({ writeGuard: guard, eventLog, keepAliveMs: 600_000 });
    try {
      const init = await fetchInitialize(s.url, VERSION);
      const sessionId = init.headers.get('mcp-session-id') as string;
      const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': VERSION };
      const notify = (data: string) => s.server.server.sendLoggingMessage({ level: 'info', data });
      const client = rawGet(s.url, session);
      await client.until(/^HTTP\/1\.1 200/);
      await notify('first');
      const first = (await client.until(/^id: (\d+)$/m))[1] as string;
      client.stopReading();

      const filler = 'x'.repeat(8_000);
      let produced = 0;
      let sent = 0;
      while (guard.closed().mcp_get === 0 && produced < MAX_PRODUCED) {
        await notify(filler);
        produced += filler.length;
        sent += 1;
        // Each event gets its turn at the socket, as events that come one by one do.
        await yieldToIo();
      }
      expect(guard.closed().mcp_get).toBe(1);
      // Let go after the socket's buffers and the bound filled, not after everything was queued.
      expect(produced).toBeLessThan(MAX_PRODUCED / 2);
      // Closed at the first write that found more than the bound unsent: at most one event more.
      const closing = JSON.parse(lines.find((l) => l.includes('SSE stream closed')) as string);
      expect(closing).toMatchObject({ stream: 'mcp_get', session: sessionId, maxUnsentBytes: BOUND });
      expect(closing.unsentBytes).toBeGreaterThan(BOUND);
      expect(closing.unsentBytes).toBeLessThanOrEqual(BOUND + 8_192);
      client.socket.destroy();

      const resumed = await fetch(s.url, {
        headers: { accept: 'text/event-stream', 'last-event-id': first, ...session },
      });
      expect(resumed.status).toBe(200);
      // Live events come on while the replay (far over the bound) is still on its way: the
      // replay is the client's to take, not a reason to close the stream again.
      const live = 10;
      for (let i = 0; i < live; i++) await notify(`live ${i}`);
      const last = String(Number(first) + sent + live);
      const text = await readUntil(resumed.body as ReadableStream<Uint8Array>, (t) => eventIds(t).includes(last));
      const ids = eventIds(text);
      expect(ids).toEqual(Array.from({ length: sent + live }, (_, i) => String(Number(first) + 1 + i)));
      expect(guard.closed().mcp_get).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('/api/events: closed past the bound, and a resume with Last-Event-ID gets what it missed', async () => {
    const guard = createSseWriteGuard({ maxUnsentBytes: () => BOUND });
    const bus = createEventBus<HubEvent>({ capacity: 10_000 });
    const inForce = parseConfig({ mcpServers: {} }, null);
    const log = pino({ level: 'silent' });
    hub = createHub({
      log,
      bus,
      config: { get: () => inForce, set: () => undefined },
      open: async () => Promise.reject(new Error('no upstreams in this test')),
    });
    const app = createApp({ hub, config: () => inForce, bus, log, adminToken: 't', writeGuard: guard });
    const auth = { authorization: 'Bearer t' };
    // Never read: in-process, what the client leaves waits in the route, as behind a full socket.
    const stalled = await app.request('/api/events', { headers: auth });
    expect(stalled.status).toBe(200);
    const snapshotId = `${bus.bootId}-${bus.lastId()}`;
    const message = 'y'.repeat(1_000);
    let published = 0;
    while (guard.closed().api_events === 0 && published < 5_000) {
      bus.publish({ type: 'config_error', server: null, file: null, message, issues: [] });
      published += 1;
      await yieldToIo();
    }
    expect(guard.closed().api_events).toBe(1);
    expect(published).toBeLessThan(1_000);
    await stalled.body?.cancel();

    const resumed = await app.request('/api/events', { headers: { ...auth, 'last-event-id': snapshotId } });
    // Published while the replay (over the bound) waits to be read: it does not close the stream.
    for (let i = 0; i < 10; i++) {
      bus.publish({ type: 'config_error', server: null, file: null, message, issues: [] });
      await yieldToIo();
    }
    const last = `${bus.bootId}-${bus.lastId()}`;
    const text = await readUntil(resumed.body as ReadableStream<Uint8Array>, (t) => eventIds(t).includes(last));
    expect(text).not.toContain('event: snapshot');
    expect(eventIds(text)).toHaveLength(published + 10);
    expect(guard.closed().api_events).toBe(1);
  });
});
