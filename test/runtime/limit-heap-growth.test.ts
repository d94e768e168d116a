/** V8's heap growing factor: a burst's garbage collected before it is a multiple of what is live. */
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/node-script.js';

// 25 MB live, then a burst of objects that live long enough to reach the old generation and
// die there; the old generation's largest size and the full collections V8 made meanwhile.
const script = `
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { limitHeapGrowth, restoreHeapGrowth } from './dist/src/runtime/limit-heap-growth.js';
const mode = process.argv[1];
if (mode === 'limited' || mode === 'restored') limitHeapGrowth();
if (mode === 'restored') restoreHeapGrowth();
let full = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
}).observe({ entryTypes: ['gc'] });
const live = Array.from({ length: 200_000 }, (_, i) => ({ i, s: ('live ' + i).repeat(8) }));
globalThis.gc();
let peak = 0;
const ring = new Array(200_000);
for (let i = 0; i < 4_000_000; i++) {
  ring[i % ring.length] = { i, s: ('garbage ' + i).repeat(4) };
  if (i % 10_000 === 0) peak = Math.max(peak, getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size);
}
await new Promise((resolve) => setTimeout(resolve, 20));
process.stdout.write(JSON.stringify({ full, peakMb: Math.round(peak / 2 ** 20), live: live.length }));
`;

type Run = { full: number; peakMb: number };
const run = (mode: 'limited' | 'default' | 'restored') => runNodeScript<Run>(script, mode, ['--expose-gc']);
// Both tests compare with the limited run: one run of it (a burst of 4 million objects) serves both.
let limitedRun: Run | undefined;
const limited = () => {
  limitedRun ??= run('limited');
  return limitedRun;
};

describe('limitHeapGrowth', () => {
  it('collects the old generation more often and keeps it at a fraction of the default peak', {
    timeout: 30_000,
  }, () => {
    const loose = run('default');
    expect(limited().full).toBeGreaterThan(loose.full);
    expect(limited().peakMb).toBeLessThan(loose.peakMb * 0.7);
  });

  it('restoreHeapGrowth gives V8 its own factor back', { timeout: 30_000 }, () => {
    const restored = run('restored');
    expect(restored.full).toBeLessThan(limited().full);
    expect(restored.peakMb).toBeGreaterThan(limited().peakMb / 0.7);
  });
});
