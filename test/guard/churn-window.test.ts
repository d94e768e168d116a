import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChurnWindow } from '../../src/guard/churn-window.js';

const limits = { maxChanges: 3, windowMs: 1_000 };

describe('churn window', () => {
  it('reports changes up to the limit, then counts them only, from the one that went over', () => {
    const window = createChurnWindow(0);
    const verdicts = Array.from({ length: 6 }, (_, i) => window.note(i * 10, limits));
    expect(verdicts.map((v) => v.report)).toEqual([true, true, true, false, false, false]);
    expect(verdicts.map((v) => v.began)).toEqual([false, false, false, true, false, false]);
    expect(window.churning()).toBe(true);
    expect(window.since()).toBe(30);
  });

  it('summarizes each window while churning, and settles after a window within the limit', () => {
    const window = createChurnWindow(0);
    for (let i = 0; i < 10; i += 1) window.note(i, limits);
    // The next window: churning from its start, every change only counted.
    expect(window.roll(1_000, limits)).toEqual({
      changes: 10,
      suppressed: 7,
      churning: true,
      windowStart: 0,
      windowMs: 1_000,
    });
    expect(window.note(1_100, limits)).toEqual({ report: false, began: false, closed: null });
    expect(window.roll(1_999, limits)).toBeNull();
    expect(window.roll(2_000, limits)).toMatchObject({ changes: 1, suppressed: 1, churning: false });
    expect(window.churning()).toBe(false);
    expect(window.note(2_100, limits).report).toBe(true);
  });

  it('closes every window of a quiet spell at once, and says nothing for a calm server', () => {
    const calm = createChurnWindow(0);
    calm.note(0, limits);
    expect(calm.roll(5_000, limits)).toBeNull();
    const busy = createChurnWindow(0);
    for (let i = 0; i < 5; i += 1) busy.note(i, limits);
    expect(busy.note(10_500, limits).closed).toMatchObject({ changes: 5, churning: false });
    expect(busy.roll(10_999, limits)).toBeNull();
  });

  it('reports at most maxChanges changes a window, whatever the changes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 300 }), (gaps) => {
        const window = createChurnWindow(0);
        const reported = new Map<number, number>();
        let at = 0;
        for (const gap of gaps) {
          at += gap;
          if (window.note(at, limits).report) {
            const slot = Math.floor(at / limits.windowMs);
            reported.set(slot, (reported.get(slot) ?? 0) + 1);
          }
        }
        for (const count of reported.values()) expect(count).toBeLessThanOrEqual(limits.maxChanges);
      }),
    );
  });
});
