import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenBucket } from '../../src/guard/token-bucket.js';

/** A clock the test moves by hand. */
function manualClock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createTokenBucket', () => {
  it('lets a burst through, then one token per 1/perSecond', () => {
    const clock = manualClock();
    const bucket = createTokenBucket({ perSecond: 10, burst: 3 }, clock.now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    clock.advance(99);
    expect(bucket.take()).toBe(false);
    clock.advance(1);
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });

  it('never holds more than the burst, however long it waits', () => {
    const clock = manualClock();
    const bucket = createTokenBucket({ perSecond: 1_000, burst: 5 }, clock.now);
    clock.advance(60_000);
    expect(bucket.tokens()).toBe(5);
    expect(Array.from({ length: 7 }, () => bucket.take()).filter(Boolean)).toHaveLength(5);
  });

  it('takes nothing back when the clock steps backwards', () => {
    const clock = manualClock(1_000);
    const bucket = createTokenBucket({ perSecond: 1, burst: 2 }, clock.now);
    bucket.take();
    clock.advance(-500);
    expect(bucket.tokens()).toBe(1);
    clock.advance(500);
    // The half second spent going back and forth is not counted twice.
    expect(bucket.tokens()).toBe(1);
  });

  it('over any schedule, lets through at most burst + perSecond × elapsed', () => {
    fc.assert(
      fc.property(
        fc.record({ perSecond: fc.integer({ min: 1, max: 1_000 }), burst: fc.integer({ min: 1, max: 500 }) }),
        fc.array(fc.record({ waitMs: fc.integer({ min: 0, max: 200 }), takes: fc.integer({ min: 0, max: 50 }) }), {
          maxLength: 100,
        }),
        (rate, steps) => {
          const clock = manualClock();
          const bucket = createTokenBucket(rate, clock.now);
          let admitted = 0;
          let elapsed = 0;
          for (const { waitMs, takes } of steps) {
            clock.advance(waitMs);
            elapsed += waitMs;
            for (let i = 0; i < takes; i++) if (bucket.take()) admitted++;
            expect(admitted).toBeLessThanOrEqual(rate.burst + (rate.perSecond * elapsed) / 1_000);
          }
        },
      ),
    );
  });
});
