/**
 * Catalog churn (SPEC X5), the pure part: counts a server's tool changes in fixed windows.
 * A server is churning from the change that goes over `maxChanges` in a window until a
 * whole window passes with at most `maxChanges`; while it churns, changes are only counted
 * (the caller summarizes them once per window instead of reporting each).
 * @module
 */

/** How many changes a window may hold before the server counts as churning. */
export type ChurnLimits = { readonly maxChanges: number; readonly windowMs: number };

/** A window that closed while the server was churning: what it held. */
export type ChurnSummary = {
  readonly changes: number;
  /** Changes that were only counted, not reported one by one. */
  readonly suppressed: number;
  /** Whether the server still churns after this window. */
  readonly churning: boolean;
  readonly windowStart: number;
  readonly windowMs: number;
};

/**
 * What to do with one change: report it, or count it only; `began` on the change that
 * started the churn; `closed` the summary of the window this change closed, if any.
 */
export type ChurnVerdict = { readonly report: boolean; readonly began: boolean; readonly closed: ChurnSummary | null };

/** A server's churn counter. */
export type ChurnWindow = {
  /** Count a change at `now` (closing the window first when it is over: see `roll`). */
  note(now: number, limits: ChurnLimits): ChurnVerdict;
  /** Close the window if it is over at `now`; its summary when the server was churning in it. */
  roll(now: number, limits: ChurnLimits): ChurnSummary | null;
  churning(): boolean;
  /** When the churn began (ms), or null. */
  since(): number | null;
  /** Changes counted in the current window. */
  changes(): number;
};

/** A counter whose first window starts at `now`. */
export function createChurnWindow(now: number): ChurnWindow {
  let windowStart = now;
  let changes = 0;
  let suppressed = 0;
  let since: number | null = null;

  const roll = (at: number, { maxChanges, windowMs }: ChurnLimits): ChurnSummary | null => {
    if (at < windowStart + windowMs) return null;
    const wasChurning = since !== null;
    const closed = { changes, suppressed, windowStart, windowMs };
    // A calm window ends the churn, and so does a quiet spell that skipped whole windows.
    if (changes <= maxChanges || at >= windowStart + 2 * windowMs) since = null;
    // Windows stay aligned on the first one, so a quiet spell closes them all at once.
    windowStart += Math.floor((at - windowStart) / windowMs) * windowMs;
    changes = 0;
    suppressed = 0;
    return wasChurning ? { ...closed, churning: since !== null } : null;
  };

  return {
    note(at, limits) {
      const closed = roll(at, limits);
      changes += 1;
      if (since === null && changes <= limits.maxChanges) return { report: true, began: false, closed };
      const began = since === null;
      since ??= at;
      suppressed += 1;
      return { report: false, began, closed };
    },
    roll,
    churning: () => since !== null,
    since: () => since,
    changes: () => changes,
  };
}
