// kill -9 of random upstreams, KILLS (default 100) times, under constant /mcp load:
// recoveries, time to recover, latency of the calls that failed, orphans, RSS before/after.
import {
  allConnected,
  countBy,
  mb,
  percentile,
  round,
  sleep,
  stdioServer,
  summarize,
  TINY,
  timedCall,
  until,
} from '../harness.mjs';

const SERVERS = 5;
const KILLS = Number(process.env.CHAOS_KILLS ?? 100);
const CALLERS = 4;

export default {
  name: 'kill9',
  what: `kill -9 of a random upstream ${KILLS} times under load (${CALLERS} callers, ${SERVERS} stdio upstreams)`,
  timeoutMs: 240_000,
  async run({ start }) {
    const names = Array.from({ length: SERVERS }, (_, i) => `up${i}`);
    // A short backoff as in the measurement, so recoveries are not waiting out delays.
    const backoff = { baseMs: 100, capMs: 1_000, jitter: 0.2 };
    const service = await start((marker) => ({
      mcpServers: Object.fromEntries(names.map((n) => [n, stdioServer(TINY, marker, { backoff })])),
    }));
    if (!(await allConnected(service, names))) return { error: 'upstreams did not connect' };
    const rssBefore = service.rssMb();
    const heapBefore = await service.heap();

    const calls = [];
    let loading = true;
    const clients = await Promise.all(Array.from({ length: CALLERS }, () => service.client()));
    const load = clients.map(async (client) => {
      while (loading) {
        const server = names[Math.floor(Math.random() * names.length)];
        calls.push(await timedCall(client, `${server}__echo`, { text: 'chaos' }, 30_000));
      }
    });

    const recoveries = [];
    const unrecovered = [];
    for (let k = 0; k < KILLS; k++) {
      const list = await service.servers();
      const up = list.filter((s) => s.state === 'connected' && s.pid);
      if (up.length === 0) {
        await sleep(50);
        k--;
        continue;
      }
      const victim = up[Math.floor(Math.random() * up.length)];
      const killedAt = performance.now();
      process.kill(victim.pid, 'SIGKILL');
      const back = await until(
        async () => {
          const s = await service.server(victim.name);
          return s?.state === 'connected' && s.pid !== victim.pid;
        },
        { timeoutMs: 15_000, intervalMs: 10 },
      );
      if (back) recoveries.push(performance.now() - killedAt);
      else unrecovered.push(victim.name);
    }
    loading = false;
    await Promise.all(load);
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await allConnected(service, names, 15_000);
    const rssAfter = service.rssMb();
    const heapAfter = await service.heap();
    const stopped = await service.stop();

    const failed = calls.filter((c) => !c.ok);
    return {
      kills: KILLS,
      recovered: recoveries.length,
      unrecovered,
      recoverMs: summarize(recoveries),
      calls: { total: calls.length, ok: calls.length - failed.length, failed: failed.length },
      failedCallMs: summarize(failed.map((c) => c.ms)),
      okCallMs: {
        p50: round(
          percentile(
            calls.filter((c) => c.ok).map((c) => c.ms),
            50,
          ),
        ),
      },
      failureKinds: countBy(failed.map((c) => c.error.replace(/\d+/g, 'N'))),
      rssMb: { before: rssBefore, after: rssAfter },
      heapMb: { before: mb(heapBefore.heapUsed), after: mb(heapAfter.heapUsed) },
      stop: stopped,
    };
  },
};
