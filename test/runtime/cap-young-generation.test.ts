/** The young generation's cap: no growth past the cap, growth again below it and after stop. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { capYoungGeneration } from '../../src/runtime/cap-young-generation.js';
import { runNodeScript } from '../support/node-script.js';

const MB = 1024 * 1024;

describe('capYoungGeneration', () => {
  it('stops the growth at the cap, lets it grow again below it, and on stop', () => {
    let size = 4 * MB;
    let gc: () => void = () => {};
    const factors: number[] = [];
    const stop = capYoungGeneration({
      maxBytes: 16 * MB,
      size: () => size,
      setGrowth: (factor) => factors.push(factor),
      afterGc: (check) => {
        gc = check;
        return () => {
          gc = () => {};
        };
      },
    });
    gc();
    expect(factors).toEqual([]);
    size = 16 * MB;
    gc();
    gc();
    expect(factors).toEqual([1]);
    size = 8 * MB;
    gc();
    expect(factors).toEqual([1, 2]);
    size = 32 * MB;
    gc();
    stop();
    expect(factors).toEqual([1, 2, 1, 2]);
    gc();
    expect(factors).toEqual([1, 2, 1, 2]);
  });

  it('keeps a real young generation at the cap under an allocation burst (V8 would grow it to 32 MB)', () => {
    const module = fileURLToPath(new URL('../../dist/src/runtime/cap-young-generation.js', import.meta.url));
    // Half of each batch survives a scavenge, which is what makes V8 grow the young generation.
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      const { capYoungGeneration } = await import(${JSON.stringify(module)});
      const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      if (process.argv[1] === 'cap') capYoungGeneration();
      let keep = [];
      for (let batch = 0; batch < 300; batch++) {
        for (let i = 0; i < 20000; i++) keep.push({ i, s: 'x' + i });
        if (keep.length > 100000) keep = keep.slice(50000);
        await new Promise((resolve) => setImmediate(resolve));
      }
      console.log(newSpace());`;
    const largest = (mode: string) => runNodeScript<number>(script, mode);
    expect(largest('free')).toBeGreaterThan(16 * MB);
    expect(largest('cap')).toBeLessThanOrEqual(16 * MB);
  });
});
