/** Work that waits for a quiet moment: not before its delay, not while the loop is busy, once. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from '../../src/runtime/when-idle.js';

describe('whenIdle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for its delay, then for a quiet spell, and runs once', () => {
    let load = 0.5;
    let runs = 0;
    whenIdle(() => (runs += 1), { afterMs: 2_000, quietMs: 500, everyMs: 250, utilization: () => load });
    vi.advanceTimersByTime(5_000);
    expect(runs).toBe(0); // busy all along
    load = 0.01;
    vi.advanceTimersByTime(250);
    expect(runs).toBe(0); // quiet for 250 ms of 500
    load = 0.2;
    vi.advanceTimersByTime(250);
    load = 0.01;
    vi.advanceTimersByTime(250);
    expect(runs).toBe(0); // a busy sample starts the spell again
    vi.advanceTimersByTime(250);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(runs).toBe(1);
  });

  it('runs at the first quiet spell after the delay, and never once cancelled', () => {
    let runs = 0;
    whenIdle(() => (runs += 1), { afterMs: 1_000, quietMs: 500, everyMs: 250, utilization: () => 0 });
    vi.advanceTimersByTime(1_400);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(100);
    expect(runs).toBe(1);
    const cancel = whenIdle(() => (runs += 1), { afterMs: 1_000, utilization: () => 0 });
    vi.advanceTimersByTime(500);
    cancel();
    vi.advanceTimersByTime(10_000);
    const late = whenIdle(() => (runs += 1), { afterMs: 0, quietMs: 250, everyMs: 250, utilization: () => 0 });
    vi.advanceTimersByTime(100);
    late();
    vi.advanceTimersByTime(10_000);
    expect(runs).toBe(1);
  });
});
