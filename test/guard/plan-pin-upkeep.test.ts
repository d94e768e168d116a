import { describe, expect, it } from 'vitest';
import { goneTools, pinsToTouch, planCap, touchEveryMs } from '../../src/guard/plan-pin-upkeep.js';

const DAY = 24 * 60 * 60 * 1000;
const pins = [
  { tool: 'a', lastSeenAt: 0 },
  { tool: 'b', lastSeenAt: 5 * DAY },
  { tool: 'c', lastSeenAt: 1 * DAY },
  { tool: 'd', lastSeenAt: 9 * DAY },
];

describe('pin upkeep plans', () => {
  it('touches only listed pins not written within the interval (a tenth of the grace, 1 s to 1 h)', () => {
    expect(touchEveryMs(7 * DAY)).toBe(60 * 60 * 1000);
    expect(touchEveryMs(5_000)).toBe(1_000);
    expect(pinsToTouch(pins, new Set(['a', 'd']), 9 * DAY + 1_000, 60 * 60 * 1000)).toEqual(['a']);
    expect(pinsToTouch(pins, new Set(['d']), 9 * DAY + 1_000, 60 * 60 * 1000)).toEqual([]);
  });

  it('forgets tools not listed for the grace, never listed ones', () => {
    expect(goneTools(pins, new Set(['a']), 8 * DAY, 7 * DAY)).toEqual(['c']);
    expect(goneTools(pins, new Set(['a', 'c']), 8 * DAY, 7 * DAY)).toEqual([]);
  });

  it('evicts pins of unlisted tools, least recently seen first, and admits only what fits', () => {
    expect(planCap(pins, new Set(['a']), 1, 10)).toEqual({ evict: [], admit: 1 });
    expect(planCap(pins, new Set(['a']), 2, 4)).toEqual({ evict: ['c', 'b'], admit: 2 });
    // Listed tools are never evicted: a catalog over the cap admits what fits.
    expect(planCap(pins, new Set(['a', 'b', 'c', 'd']), 3, 5)).toEqual({ evict: [], admit: 1 });
    expect(planCap(pins, new Set(['a', 'b', 'c', 'd']), 3, 2)).toEqual({ evict: [], admit: 0 });
  });
});
