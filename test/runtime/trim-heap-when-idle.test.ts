/** The idle trim: one collection per quiet spell after busier times, never while busy. */
import { describe, expect, it } from 'vitest';
import { trimHeapWhenIdle } from '../../src/runtime/trim-heap-when-idle.js';

/** A trim driven by hand: `tick(u)` is one sample of the loop's utilization. */
function driven() {
  const collections: string[] = [];
  let sample = 0;
  let run: () => void = () => {};
  const stop = trimHeapWhenIdle({
    quietMs: 3_000,
    everyMs: 1_000,
    collect: { full: () => collections.push('full'), young: () => collections.push('young') },
    utilization: () => sample,
    every: (tick) => {
      run = tick;
      return () => {
        run = () => {};
      };
    },
  });
  return {
    tick: (...utilizations: number[]) => {
      for (const u of utilizations) {
        sample = u;
        run();
      }
    },
    collections: () => collections.join(' '),
    stop,
  };
}

describe('trimHeapWhenIdle', () => {
  it('collects once after start-up once quiet for quietMs, then not again while quiet', () => {
    const t = driven();
    t.tick(0, 0);
    expect(t.collections()).toBe('');
    t.tick(0);
    expect(t.collections()).toBe('full');
    t.tick(0, 0);
    expect(t.collections()).toBe('full');
    t.tick(0, 0, 0, 0, 0, 0);
    expect(t.collections()).toBe('full young');
  });

  it('waits for a whole quiet spell after each busy time, and never collects while busy', () => {
    const t = driven();
    t.tick(0, 0, 0, 0, 0, 0);
    expect(t.collections()).toBe('full young');
    t.tick(0.5, 0.3, 0.2, 0.9);
    t.tick(0, 0, 0.2, 0, 0);
    expect(t.collections()).toBe('full young');
    t.tick(0);
    expect(t.collections()).toBe('full young full');
    // Busy again before the young collection was due: it waits for the next spell.
    t.tick(0, 0.4, 0, 0, 0);
    expect(t.collections()).toBe('full young full full');
  });

  it('does not count the time of its own collections as busy', () => {
    const t = driven();
    t.tick(0, 0, 0);
    t.tick(0.2, 0, 0);
    expect(t.collections()).toBe('full young');
    t.tick(0.2, 0, 0, 0, 0, 0);
    expect(t.collections()).toBe('full young');
  });

  it('stops', () => {
    const t = driven();
    t.stop();
    t.tick(0, 0, 0, 0);
    expect(t.collections()).toBe('');
  });
});
