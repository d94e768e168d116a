/**
 * Large requests' share of one upstream connection (issue 17, ADR 022 §7). A single-threaded
 * upstream parsing a large request answers nothing else meanwhile: while ordinary requests
 * use the connection too (one came within {@link SHARED_WINDOW_MS}), each large request is
 * followed by a rest as long as it ran, before the next large one starts. Large requests
 * then take at most half the connection's time and an ordinary one finds it free at least
 * half the time; alone on the connection they follow each other without a pause. Pure: the
 * caller passes the time.
 * @module
 */

/** How recent an ordinary request must be for the connection to count as shared. */
export const SHARED_WINDOW_MS = 5_000;

/** One connection's share. */
export type LargeShare = {
  /** Whether a large request may start at `now`. */
  open(now: number): boolean;
  /** How long from `now` until a large request may start (0: now). */
  opensIn(now: number): number;
  /** An ordinary request came at `now`. */
  ordinary(now: number): void;
  /** A large request ran from `from` to `now`; how long until the next may start (0: at once). */
  ended(from: number, now: number): number;
};

/** A connection's share, open to begin with. */
export function createLargeShare(): LargeShare {
  let ordinaryAt = Number.NEGATIVE_INFINITY;
  let restUntil = 0;
  return {
    open: (now) => now >= restUntil,
    opensIn: (now) => Math.max(0, restUntil - now),
    ordinary(now) {
      ordinaryAt = now;
    },
    ended(from, now) {
      if (now - ordinaryAt > SHARED_WINDOW_MS) return 0;
      restUntil = Math.max(restUntil, now + 3 * (now - from));
      return restUntil - now;
    },
  };
}
