// The harness's 64 KiB window, paired between two builds (issue 20). The shared harness takes
// its 64 KiB figure on the first 200 long answers of a process that has answered thousands of
// short ones: a cold path (docs/performance.md, "sixth round"), whose run-to-run spread
// (±0.08 ms) is wider than most changes. Here each round starts a fresh service of each build,
// drives both through the harness's order with one client each — 300 `echo` calls, 2,000 at 16
// in flight, 1,000 sequential, 300 `tools/list` — alternating between them call by call (the
// 16-in-flight phase one side after the other, the first side swapped each round), then 200
// calls of `bytes` (64 KiB) a side, one side after the other once both are quiet (as the
// harness sees a target) or, with TOGETHER=1, alternating call by call (drift hits both alike,
// but each side's compiles load the other's: it missed the 3 % an output hash costs): each
// window's p50 and the service's own CPU in it (every thread of its process, not its upstream).
// Then the medians and the spread of the B/A ratios. Run it with the same build twice to see the
// method's own spread.
// Run: node bench/cold-window.mjs DIR_A DIR_B   (each a checkout with a build: bin/, dist/)
//   ROUNDS=8, WINDOW=200 (64 KiB calls), TOGETHER=1, NODE_A / NODE_B extra node flags,
//   UPSTREAM: the upstream to copy and run (default ../shared/bench/upstream.mjs)
import { closeBuild, harnessUpstream, leanFetch, openBuild, sideCpuMs, timedCall } from './lib/build-side.mjs';
import { median } from './lib/measure.mjs';
import { pairedSummary } from './lib/paired.mjs';

const [A, B] = process.argv.slice(2);
if (!A || !B) throw new Error('usage: node bench/cold-window.mjs DIR_A DIR_B');
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const WINDOW = Number(process.env.WINDOW ?? 200);
const APART = process.env.TOGETHER !== '1';
const UPSTREAM = harnessUpstream();

const open = (dir, nodeArgs) => openBuild(dir, { upstream: UPSTREAM, nodeArgs, name: 'cold-window', fetch: leanFetch });

const alternate = async (order, n, step) => {
  for (let i = 0; i < n; i++) for (const side of order) await step(side);
};
const inFlight = async (side, total, width) => {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next += 1;
      await timedCall(side, 'echo');
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
};

/** Resolves once no service used more than 2 ms of CPU in 100 ms (at most 10 s). */
const quiet = async (sides) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const before = sides.map(sideCpuMs);
    await new Promise((r) => setTimeout(r, 100));
    const busy = sides.some((s, i) => sideCpuMs(s) - (before[i] ?? 0) > 2);
    if (!busy || Date.now() > deadline) return;
  }
};

/** Both windows at once, call by call: what drifts hits both; each side's compiles load the other's. */
const together = async (order) => {
  const lat = new Map(order.map((s) => [s, []]));
  const cpu0 = new Map(order.map((s) => [s, sideCpuMs(s)]));
  await alternate(order, WINDOW, async (side) => lat.get(side).push(await timedCall(side, 'bytes')));
  return new Map(
    order.map((s) => [s, { p50: median(lat.get(s)), cpu: ((sideCpuMs(s) - cpu0.get(s)) * 1000) / WINDOW }]),
  );
};
/** One window at a time, each once both services are quiet, as the harness sees one target. */
const apart = async (order) => {
  const out = new Map();
  for (const side of order) {
    await quiet(order);
    const cpu0 = sideCpuMs(side);
    const lat = [];
    for (let i = 0; i < WINDOW; i++) lat.push(await timedCall(side, 'bytes'));
    out.set(side, { p50: median(lat), cpu: ((sideCpuMs(side) - cpu0) * 1000) / WINDOW });
  }
  return out;
};

const flags = (value) => (value ? value.split(' ') : []);
// The client's own code is cold for long answers too: warmed first on a service thrown away,
// so that no window (the first one measured, or the first of a round) pays for it.
{
  const warm = await open(A, []);
  try {
    for (let i = 0; i < 300; i++) await timedCall(warm, 'bytes');
  } finally {
    await closeBuild(warm);
  }
}
const rows = [];
for (let round = 0; round < ROUNDS; round++) {
  const a = await open(A, flags(process.env.NODE_A));
  const b = await open(B, flags(process.env.NODE_B));
  try {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    await alternate(order, 300, (side) => timedCall(side, 'echo'));
    for (const side of order) await inFlight(side, 2_000, 16);
    await alternate(order, 1_000, (side) => timedCall(side, 'echo'));
    await alternate(order, 300, (side) => side.client.listTools());
    const window = APART ? await apart(order) : await together(order);
    const row = { cpuA: window.get(a).cpu, cpuB: window.get(b).cpu, p50A: window.get(a).p50, p50B: window.get(b).p50 };
    rows.push({ ...row, cpu: row.cpuB / row.cpuA, p50: row.p50B / row.p50A });
    process.stderr.write(`round ${round + 1}: ${JSON.stringify(rows.at(-1))}\n`);
  } finally {
    for (const side of [a, b]) await closeBuild(side);
  }
}
// The second window of a round tends to be the faster (apart: by ~7 % here, the client warmed
// first all the same, and still when warmed again before each window; why is not known): the
// geometric mean of the medians of each order's ratios cancels that.
const balanced = (k) => {
  const aFirst = median(rows.filter((_, i) => i % 2 === 0).map((r) => r[k]));
  const bFirst = median(rows.filter((_, i) => i % 2 === 1).map((r) => r[k]));
  return { aFirst, bFirst, balanced: Math.sqrt(aFirst * bFirst) };
};
console.log(
  JSON.stringify({
    window: WINDOW,
    rounds: ROUNDS,
    apart: APART,
    ...pairedSummary(rows),
    p50ByOrder: balanced('p50'),
    cpuByOrder: balanced('cpu'),
  }),
);
