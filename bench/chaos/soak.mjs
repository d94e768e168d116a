#!/usr/bin/env node
// `npm run soak`: SOAK_MINUTES (default 10) of constant /mcp traffic with periodic
// reconnects (kill -9 of a random upstream every 10 s) and sessions opened and closed,
// against a real `bnity serve` on 127.0.0.1. Heap after a forced GC is sampled through the
// harness's preload; the figure is its slope per hour. Writes bench/results/soak-<time>.json.
import { loadavg } from 'node:os';
import {
  allConnected,
  mb,
  processesWith,
  round,
  sleep,
  slope,
  startService,
  stdioServer,
  summarize,
  TINY,
  timedCall,
  within,
  writeResult,
} from './harness.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SAMPLES = 20;
const KILL_EVERY_MS = 10_000;
const names = ['a', 'b', 'c'];

const service = await startService((marker) => ({
  mcpServers: Object.fromEntries(
    names.map((n) => [n, stdioServer(TINY, marker, { backoff: { baseMs: 100, capMs: 1_000 } })]),
  ),
  // Abandoned sessions are reaped within the soak, so what they hold is not counted as growth.
  gateway: { sessionIdleMs: 60_000 },
}));
const began = performance.now();
const endAt = began + MINUTES * 60_000;
const hardStop = setTimeout(
  () => {
    process.stderr.write('soak: over its time bound, stopping the service\n');
    void service.stop().then(() => process.exit(1));
  },
  MINUTES * 60_000 + 180_000,
);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`soak: ${signal}, stopping the service\n`);
    void service.stop({ graceMs: 5_000 }).then(() => process.exit(130));
  });
}

let figures;
try {
  if (!(await allConnected(service, names))) throw new Error('upstreams did not connect');
  const clients = await Promise.all([service.client(), service.client()]);
  let window = [];
  const totals = { ok: 0, failed: 0, sessions: 0, kills: 0 };
  const traffic = clients.map(async (client) => {
    while (performance.now() < endAt) {
      const call = await timedCall(
        client,
        `${names[Math.floor(Math.random() * names.length)]}__echo`,
        { text: 'soak' },
        30_000,
      );
      window.push(call);
      totals[call.ok ? 'ok' : 'failed']++;
      await sleep(20);
    }
  });
  const churn = (async () => {
    while (performance.now() < endAt) {
      const opened = await within(service.client(), 10_000);
      if (opened.value) {
        await timedCall(opened.value, 'a__echo', { text: 'short session' }, 10_000);
        // Half are closed politely, half abandoned to the idle sweep.
        if (totals.sessions % 2 === 0) await within(opened.value.close(), 5_000);
        totals.sessions++;
      }
      await sleep(2_000);
    }
  })();
  const kills = (async () => {
    while (performance.now() < endAt) {
      await sleep(KILL_EVERY_MS);
      const up = (await service.servers().catch(() => [])).filter((s) => s.state === 'connected' && s.pid);
      const victim = up[Math.floor(Math.random() * up.length)];
      if (!victim) continue;
      try {
        process.kill(victim.pid, 'SIGKILL');
        totals.kills++;
      } catch {
        // It went by itself.
      }
    }
  })();

  const samples = [];
  const every = (MINUTES * 60_000) / SAMPLES;
  for (let i = 0; i <= SAMPLES && performance.now() < endAt + every / 2; i++) {
    const heap = await within(service.heap(), 15_000);
    const period = window;
    window = [];
    samples.push({
      minute: round((performance.now() - began) / 60_000, 2),
      heapMb: heap.value ? mb(heap.value.heapUsed) : null,
      rssMb: service.rssMb(),
      calls: period.length,
      failed: period.filter((c) => !c.ok).length,
      callMs: summarize(period.filter((c) => c.ok).map((c) => c.ms)),
    });
    process.stdout.write(`soak: ${JSON.stringify(samples.at(-1))}\n`);
    if (i < SAMPLES) await sleep(Math.max(0, began + (i + 1) * every - performance.now()));
  }
  await Promise.all([...traffic, churn, kills]);
  await within(Promise.all(clients.map((c) => c.close())), 5_000);
  // The first fifth is warm-up (caches, JIT, the bus's replay window filling): the slope is
  // taken over the rest.
  const steady = samples.filter((s) => s.minute >= MINUTES / 5 && s.heapMb !== null);
  const perHour = (key) => round(slope(steady.map((s) => [s.minute / 60, s[key]])), 1);
  const aliveBeforeStop = processesWith(service.marker).length;
  const stopped = await service.stop();
  figures = {
    scenario: 'soak',
    at: new Date().toISOString(),
    node: process.version,
    bnity: process.env.BNITY_BIN ?? 'this checkout',
    loadavg: loadavg().map((x) => round(x)),
    minutes: MINUTES,
    totals,
    heapSlopeMbPerHour: perHour('heapMb'),
    rssSlopeMbPerHour: perHour('rssMb'),
    heapMb: { first: samples[0]?.heapMb ?? null, last: samples.at(-1)?.heapMb ?? null },
    rssMb: { first: samples[0]?.rssMb ?? null, last: samples.at(-1)?.rssMb ?? null },
    upstreamProcessesBeforeStop: aliveBeforeStop,
    samples,
    stop: stopped,
  };
} catch (error) {
  const stopped = service.exit() === null ? await service.stop() : null;
  figures = { scenario: 'soak', status: 'error', error: String(error?.stack ?? error), stop: stopped };
}
clearTimeout(hardStop);
const file = writeResult('soak', figures);
const { samples: _samples, ...headline } = figures;
process.stdout.write(`${JSON.stringify(headline, null, 2)}\nwritten to ${file}\n`);
