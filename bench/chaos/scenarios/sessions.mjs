// SESSIONS (default 10,000) agent sessions opened on /mcp with a bare initialize and never
// closed: memory while they live (default idle timeout, 30 min: none is reaped meanwhile),
// then, with the idle timeout lowered to 20 s by a config reload, when the sweep reaps them.
// One token opens them all: with the caps of issue 11 (gateway.maxSessionsPerToken) only
// its newest live, the older ones closed as it opens more; `/metrics` says how many live.
import { allConnected, mb, round, sleep, slope, stdioServer, TINY, until, within } from '../harness.mjs';

const SESSIONS = Number(process.env.CHAOS_SESSIONS ?? 10_000);
const CONCURRENCY = 8;
const IDLE_MS = 20_000;
const OPEN_BOUND_MS = 180_000;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abandoned', version: '1' } },
});

export default {
  name: 'sessions',
  what: `${SESSIONS} sessions opened with initialize and abandoned; then gateway.sessionIdleMs lowered to ${IDLE_MS} ms`,
  timeoutMs: 420_000,
  async run({ start }) {
    const config = (idle) => (marker) => ({
      mcpServers: { ok: stdioServer(TINY, marker) },
      ...(idle ? { gateway: { sessionIdleMs: idle } } : {}),
    });
    const service = await start(config(null));
    await allConnected(service, ['ok']);
    const heapBefore = (await service.heap()).heapUsed;
    const rssBefore = service.rssMb();
    const ids = [];
    const failures = {};
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < SESSIONS && performance.now() - t0 < OPEN_BOUND_MS) {
        next++;
        try {
          const response = await fetch(`${service.url}/mcp`, {
            method: 'POST',
            headers: {
              ...service.auth,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: INITIALIZE,
            signal: AbortSignal.timeout(30_000),
          });
          await response.body?.cancel();
          const id = response.headers.get('mcp-session-id');
          if (id) ids.push(id);
          else failures[response.status] = (failures[response.status] ?? 0) + 1;
        } catch (error) {
          const key = String(error?.cause?.code ?? error?.name ?? error);
          failures[key] = (failures[key] ?? 0) + 1;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const openSeconds = (performance.now() - t0) / 1_000;
    const liveAfterOpen = await liveSessions(service);
    const openedAt = performance.now();
    const heapOpen = await within(service.heap(), 30_000);
    const rssOpen = service.rssMb();

    // Heap after GC every 2 s: it falls when the sweep closes the idle sessions. The sweep's
    // period was once set at start (a minute); it now follows the timeout, reloaded here.
    service.writeConfig(config(IDLE_MS));
    const samples = [];
    const reapBy = 120_000;
    const growth = heapOpen.value ? heapOpen.value.heapUsed - heapBefore : 0;
    // The sweep follows the timeout: wait (bounded) until none is left, by the metric.
    const emptied =
      liveAfterOpen === null
        ? null
        : await until(async () => (await liveSessions(service)) === 0, { timeoutMs: 90_000, intervalMs: 500 });
    const liveGoneAfterS = emptied ? round((performance.now() - openedAt) / 1_000) : null;
    const reaped = await until(
      async () => {
        const heap = (await service.heap()).heapUsed;
        samples.push([round((performance.now() - openedAt) / 1_000), mb(heap)]);
        // Reaped: most of what opening them added is gone again.
        return growth > 0 && heapBefore + growth - heap > growth * 0.7;
      },
      // Once the metric says they are gone, the heap has little left to show.
      { timeoutMs: emptied ? 10_000 : reapBy, intervalMs: 2_000 },
    );
    const reapedAfterS = reaped ? round((performance.now() - openedAt) / 1_000) : null;
    await sleep(500);
    // A few of the abandoned sessions, asked directly: 404 once reaped.
    const probes = await Promise.all(
      ids.slice(0, 50).map((id) =>
        fetch(`${service.url}/mcp`, {
          method: 'POST',
          headers: {
            ...service.auth,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': id,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
          signal: AbortSignal.timeout(10_000),
        }).then(
          async (r) => {
            await r.body?.cancel();
            return r.status;
          },
          () => 0,
        ),
      ),
    );
    const heapEnd = await within(service.heap(), 30_000);
    const rssEnd = service.rssMb();
    const stopped = await service.stop();
    return {
      opened: ids.length,
      failures,
      openSeconds: round(openSeconds),
      perSessionKb: heapOpen.value && ids.length ? round(growth / 1024 / ids.length) : null,
      heapMb: {
        before: mb(heapBefore),
        open: heapOpen.value ? mb(heapOpen.value.heapUsed) : null,
        end: heapEnd.value ? mb(heapEnd.value.heapUsed) : null,
      },
      rssMb: { before: rssBefore, open: rssOpen, end: rssEnd },
      reapedAfterS,
      liveAfterOpen,
      liveGoneAfterS,
      heapSlopeMbPerS: round(slope(samples), 3),
      heapSamples: samples,
      probedAfterwards: Object.fromEntries(
        [...new Set(probes)].map((status) => [status, probes.filter((p) => p === status).length]),
      ),
      stop: stopped,
    };
  },
};

/** Live `/mcp` sessions by `boternity_sessions` (null when the metric is absent: an older build). */
async function liveSessions(service) {
  try {
    const text = await (await fetch(`${service.url}/metrics`, { headers: service.auth })).text();
    const match = /^boternity_sessions\{endpoint="\/mcp"\} (\d+)$/m.exec(text);
    if (match) return Number(match[1]);
    return /^# TYPE boternity_sessions gauge$/m.test(text) ? 0 : null;
  } catch {
    return null;
  }
}
