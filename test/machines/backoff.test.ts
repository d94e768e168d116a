import { describe, expect, it } from 'vitest';
import { isExhausted, nextDelayMs } from '../../machines/index.js';
import { BACKOFF } from './fixtures.js';

const sequence = (count: number, random: () => number) =>
  Array.from({ length: count }, (_, i) => nextDelayMs(i + 1, BACKOFF, random));

describe('nextDelayMs', () => {
  it('doubles from the base and stops at the cap without jitter', () => {
    expect(sequence(9, () => 0)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('takes away up to `jitter` of the delay', () => {
    expect(sequence(8, () => 0.5)).toEqual([450, 900, 1800, 3600, 7200, 14400, 27000, 27000]);
    expect(nextDelayMs(3, BACKOFF, () => 0.999)).toBe(1600);
    expect(nextDelayMs(3, { ...BACKOFF, jitter: 0 }, () => 0.999)).toBe(2000);
  });

  it('grows strictly until the cap whatever the random draw', () => {
    const draws = [0.99, 0, 0.7, 0.01, 0.95, 0.3, 0.5];
    let i = 0;
    const delays = sequence(7, () => draws[i++] ?? 0);
    expect(delays).toEqual([401, 1000, 1720, 3992, 6480, 15040, 27000]);
    for (let k = 1; k < 6; k += 1) expect(delays[k]).toBeGreaterThan(delays[k - 1] as number);
    expect(Math.max(...sequence(40, Math.random))).toBeLessThanOrEqual(30_000);
  });

  it('treats attempt 0 like attempt 1, clamps odd random values and survives huge exponents', () => {
    expect(nextDelayMs(0, BACKOFF, () => 0)).toBe(500);
    expect(nextDelayMs(1, BACKOFF, () => 7)).toBe(400);
    expect(nextDelayMs(1, BACKOFF, () => -1)).toBe(500);
    expect(nextDelayMs(5_000, BACKOFF, () => 0)).toBe(30_000);
  });
});

describe('isExhausted', () => {
  it('never runs out without maxAttempts', () => {
    expect(isExhausted(1_000_000, BACKOFF)).toBe(false);
  });

  it('runs out once attempt passes maxAttempts', () => {
    const policy = { ...BACKOFF, maxAttempts: 3 };
    expect([1, 2, 3, 4, 5].map((attempt) => isExhausted(attempt, policy))).toEqual([false, false, false, true, true]);
  });
});
