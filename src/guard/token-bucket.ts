/**
 * A token bucket (pure; time is injected): `burst` tokens at most, refilled at `perSecond`.
 * What an upstream may send of notifications (issue 17): a burst passes, a steady stream
 * above the rate does not.
 * @module
 */

/** How fast a bucket refills and how much it holds. */
export type BucketRate = { readonly perSecond: number; readonly burst: number };

/** A bucket: `take()` spends one token, or says there is none. */
export type TokenBucket = {
  /** True (and one token spent) when a token is there; false otherwise, nothing spent. */
  take(): boolean;
  /** Tokens there now (fractional), after refilling. */
  tokens(): number;
};

/** A full bucket; `now` is in milliseconds (default `performance.now`). */
export function createTokenBucket(
  { perSecond, burst }: BucketRate,
  now: () => number = () => performance.now(),
): TokenBucket {
  let tokens = burst;
  let at = now();
  const refill = () => {
    const t = now();
    // A clock that steps back refills nothing, and takes nothing away either.
    if (t > at) tokens = Math.min(burst, tokens + ((t - at) / 1_000) * perSecond);
    at = Math.max(at, t);
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    tokens() {
      refill();
      return tokens;
    },
  };
}
