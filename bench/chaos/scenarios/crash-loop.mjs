// An upstream that exits shortly after every start, with a short backoff: reconnects per
// second, heap kept per reconnect after a forced GC, processes left behind.
import { join } from 'node:path';
import { mb, processesWith, round, stdioServer, UPSTREAMS, until, within } from '../harness.mjs';

const RECONNECTS = Number(process.env.CHAOS_RECONNECTS ?? 100);
const WARMUP = 10;

export default {
  name: 'crash-loop',
  what: `an upstream exiting 100 ms after each start, ${RECONNECTS} reconnects (backoff 50–200 ms)`,
  timeoutMs: 300_000,
  async run({ start }) {
    const service = await start((marker) => ({
      mcpServers: {
        crashy: stdioServer(join(UPSTREAMS, 'crash-loop.mjs'), marker, {
          env: { CRASH_AFTER_MS: '100' },
          backoff: { baseMs: 50, capMs: 200, resetAfterMs: 60_000 },
        }),
      },
    }));
    const metric = async () => {
      const { body } = await service.api('/metrics');
      return Number(/boternity_upstream_reconnects_total\{server="crashy"\} (\d+)/.exec(body)?.[1] ?? 0);
    };
    const reached = (n) => until(async () => (await metric()) >= n, { timeoutMs: 240_000, intervalMs: 100 });
    if (!(await reached(WARMUP))) return { error: 'no reconnects', log: service.log().slice(-1_000) };
    const heapStart = (await service.heap()).heapUsed;
    const rssStart = service.rssMb();
    const t0 = performance.now();
    const done = await reached(WARMUP + RECONNECTS);
    const seconds = (performance.now() - t0) / 1_000;
    const count = (await metric()) - WARMUP;
    const heapEnd = await within(service.heap(), 15_000);
    const rssEnd = service.rssMb();
    const alive = processesWith(service.marker).length;
    const stopped = await service.stop();
    const kept = heapEnd.value ? heapEnd.value.heapUsed - heapStart : null;
    return {
      reconnects: count,
      finished: Boolean(done),
      reconnectsPerSecond: round(count / seconds, 2),
      heapMb: { start: mb(heapStart), end: heapEnd.value ? mb(heapEnd.value.heapUsed) : null },
      heapKeptPerReconnectKb: kept === null ? null : round(kept / 1024 / count),
      rssMb: { start: rssStart, end: rssEnd },
      upstreamProcessesAliveAtEnd: alive,
      stop: stopped,
    };
  },
};
