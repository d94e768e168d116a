/**
 * Issue 2 acceptance: the service supervising server-everything over stdio and over
 * Streamable HTTP, plus an unreachable URL, seen through /api/servers and /api/events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { freePort } from '../support/free-port.js';
import { openSse } from '../support/sse-client.js';
import { startEverythingHttp } from '../support/start-everything-http.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const seqOf = (id: string | null): number => Number(id?.split('-')[1]);
const openResumed = (svc: TestService, lastEventId: string) =>
  openSse(`${svc.service.url}/api/events`, { authorization: 'Bearer test-admin-token', 'last-event-id': lastEventId });

const fast = { healthIntervalMs: 60_000, backoff: { baseMs: 100, capMs: 800, jitter: 0.2 } };

describe('supervising stdio, Streamable HTTP and an unreachable upstream', () => {
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let svc: TestService;
  let sse: Awaited<ReturnType<TestService['events']>>;
  let deadUrl: string;

  beforeAll(async () => {
    http = await startEverythingHttp();
    deadUrl = `http://127.0.0.1:${await freePort()}/mcp`;
    svc = await startTestService({
      mcpServers: {
        'everything-stdio': { command: process.execPath, args: [EVERYTHING_BIN], ...fast },
        'everything-http': { type: 'http', url: http.url, ...fast, healthIntervalMs: 1_000, pingTimeoutMs: 1_000 },
        unreachable: { url: deadUrl, ...fast },
      },
    });
    // Resume from before the first event, so the stream holds every transition since start.
    sse = await svc.events('?lastEventId=0');
  }, 60_000);

  afterAll(async () => {
    await sse?.close();
    await svc?.stop();
    await http?.stop();
  });

  it('shows two connected with their tool counts and one reconnecting whose delay grows', async () => {
    const servers = await waitFor(
      async () => {
        const list = await svc.servers();
        const up = list.filter((s) => s.state === 'connected');
        return up.length === 2 ? list : null;
      },
      { what: 'two connected servers', timeoutMs: 30_000 },
    );
    const byName = new Map(servers.map((s) => [s.name, s]));
    for (const name of ['everything-stdio', 'everything-http']) {
      const s = byName.get(name) as ServerStatus;
      expect(s.state).toBe('connected');
      expect(s.toolCount).toBeGreaterThan(5);
      expect(s.resourceCount).toBeGreaterThan(0);
      expect(s.promptCount).toBeGreaterThan(0);
    }
    expect(byName.get('everything-stdio')?.pid).toBeGreaterThan(0);
    expect(byName.get('everything-stdio')?.transport).toBe('stdio');
    expect(byName.get('everything-http')?.pid).toBeNull();
    expect(byName.get('everything-http')?.transport).toBe('http');
    // Every field of the section 7 contract is present.
    expect(Object.keys(byName.get('unreachable') as object)).toEqual(
      expect.arrayContaining([
        'name',
        'transport',
        'state',
        'attempt',
        'lastError',
        'nextRetryAt',
        'toolCount',
        'resourceCount',
        'promptCount',
        'pid',
      ]),
    );

    const delays = await waitFor(
      () => {
        const d = sse.events.filter(
          (e) => e.event === 'reconnecting' && (e.data as { server: string }).server === 'unreachable',
        );
        return d.length >= 3 ? d.map((e) => e.data as { delayMs: number; attempt: number }) : null;
      },
      { what: 'three reconnect attempts', timeoutMs: 20_000 },
    );
    expect(delays.map((d) => d.attempt).slice(0, 3)).toEqual([1, 2, 3]);
    expect(delays[1]?.delayMs).toBeGreaterThan(delays[0]?.delayMs ?? Infinity);
    expect(delays[2]?.delayMs).toBeGreaterThan(delays[1]?.delayMs ?? Infinity);

    const unreachable = await svc.server('unreachable');
    expect(['reconnecting', 'connecting']).toContain(unreachable?.state);
    expect(unreachable?.attempt).toBeGreaterThanOrEqual(3);
    expect(unreachable?.lastError).toMatch(/ECONNREFUSED|fetch failed|connect/i);
  });

  it('streams every transition exactly once, each naming its server', async () => {
    const transitions = sse.events.filter((e) =>
      ['connecting', 'connected', 'reconnecting', 'disabled', 'removed'].includes(e.event),
    );
    // Ids are strictly increasing: nothing was sent twice.
    const ids = sse.events.filter((e) => e.id !== null).map((e) => seqOf(e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const name of ['everything-stdio', 'everything-http', 'unreachable']) {
      const states = transitions.filter((e) => (e.data as { server: string }).server === name).map((e) => e.event);
      expect(states[0]).toBe('connecting');
      // No state is reported twice in a row: one event per transition.
      for (let i = 1; i < states.length; i++) expect(states[i]).not.toBe(states[i - 1]);
    }
    const stdioStates = transitions
      .filter((e) => (e.data as { server: string }).server === 'everything-stdio')
      .map((e) => e.event);
    expect(stdioStates.slice(0, 2)).toEqual(['connecting', 'connected']);
  });

  it('starts a fresh stream with a snapshot, and resumes one from Last-Event-ID without it', async () => {
    const fresh = await svc.events();
    const first = await fresh.next(() => true);
    await fresh.close();
    expect(first.event).toBe('snapshot');
    expect((first.data as { servers: ServerStatus[] }).servers.map((s) => s.name)).toEqual([
      'everything-stdio',
      'everything-http',
      'unreachable',
    ]);
    const lastSeen = sse.events.filter((e) => e.id !== null).at(-3);
    const replay = await openResumed(svc, String(lastSeen?.id));
    expect(lastSeen?.id).toMatch(/^[a-z0-9]+-\d+$/);
    const firstReplayed = await replay.next(() => true);
    await replay.close();
    expect(firstReplayed.event).not.toBe('snapshot');
    expect(seqOf(firstReplayed.id)).toBe(seqOf(lastSeen?.id ?? null) + 1);
  });

  it('reconnects a stdio child killed with SIGKILL: reconnecting within 1 s, then connected with a new pid', async () => {
    const before = (await svc.server('everything-stdio')) as ServerStatus;
    const killedAt = Date.now();
    process.kill(before.pid as number, 'SIGKILL');
    const reconnecting = await sse.next(
      (e) => e.event === 'reconnecting' && (e.data as { server: string }).server === 'everything-stdio',
      5_000,
    );
    expect(Date.parse((reconnecting.data as { at: string }).at) - killedAt).toBeLessThan(1_000);
    const after = await waitFor(
      async () => {
        const s = await svc.server('everything-stdio');
        return s?.state === 'connected' && s.pid !== before.pid ? s : null;
      },
      { what: 'reconnected stdio server', timeoutMs: 15_000 },
    );
    expect(after.pid).toBeGreaterThan(0);
    expect(() => process.kill(before.pid as number, 0)).toThrow();
  });

  it('brings the HTTP upstream back to connected after it is stopped and started again', async () => {
    await http.stop();
    // Its health ping (every second here) notices; the reconnect attempts then fail until it is back.
    await waitFor(async () => (await svc.server('everything-http'))?.state !== 'connected', {
      what: 'http upstream to be noticed down',
      timeoutMs: 15_000,
    });
    await http.restart();
    const back = await waitFor(
      async () => {
        const s = await svc.server('everything-http');
        return s?.state === 'connected' ? s : null;
      },
      { what: 'http upstream connected again', timeoutMs: 20_000 },
    );
    expect(back.toolCount).toBeGreaterThan(5);
  });
});
