// Two services measured in the same minutes, so that a shared, noisy machine hits both alike:
// one client alternates calls between them (A, B, A, B…; the first side swaps each round).
// Per round each side's own CPU a call and its p50, and the B/A ratios; then their medians and
// the spread of the ratios. Used by tracing-paired.mjs and paired-builds.mjs.
import { median } from './measure.mjs';

/**
 * `rounds` rounds of `calls` calls a side: `call(side)` makes one and resolves with its time
 * in ms, `cpuMs(side)` is that side's CPU so far in ms. Each round is logged on stderr.
 */
export async function pairedRounds({ a, b, rounds, calls, call, cpuMs }) {
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    const lat = new Map(order.map((s) => [s, []]));
    const cpu0 = new Map(order.map((s) => [s, cpuMs(s)]));
    for (let i = 0; i < calls; i++) for (const side of order) lat.get(side).push(await call(side));
    const cpu = (s) => ((cpuMs(s) - cpu0.get(s)) * 1000) / calls;
    const row = { cpuA: cpu(a), cpuB: cpu(b), p50A: median(lat.get(a)), p50B: median(lat.get(b)) };
    rows.push({ ...row, cpu: row.cpuB / row.cpuA, p50: row.p50B / row.p50A });
    process.stderr.write(`round ${round + 1}: ${JSON.stringify(rows.at(-1))}\n`);
  }
  return rows;
}

/** The medians of the rounds (CPU in µs a call, p50 in ms) and the spread of the B/A ratios. */
export function pairedSummary(rows) {
  const col = (k) => rows.map((r) => r[k]);
  return {
    cpuUsA: median(col('cpuA')),
    cpuUsB: median(col('cpuB')),
    cpuRatio: median(col('cpu')),
    cpuRatioSpread: [Math.min(...col('cpu')), Math.max(...col('cpu'))],
    p50MsA: median(col('p50A')),
    p50MsB: median(col('p50B')),
    p50Ratio: median(col('p50')),
    p50RatioSpread: [Math.min(...col('p50')), Math.max(...col('p50'))],
  };
}
