/**
 * Points taken from a shared limiter in blocks and spent in memory (ADR 042): one round trip
 * to the fleet's store per block instead of per request. The fleet never admits more than
 * the limit (a block is taken from the shared count before any of it is spent); what a
 * replica has not spent of its block when the window ends is lost to the others, so a
 * block is a small share of the limit (issue 22 asks for ±10 %). Once the store says the
 * window is full, this replica refuses locally until the window ends.
 * @module
 */
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** What the perimeter asks of a limiter (rate-limiter-flexible's own shape). */
export type PointLimiter = Pick<RateLimiterAbstract, 'consume' | 'reward'>;

/** A block: what is left of it, until when (ms, `now()`'s clock), and whether the store said the window is full. */
type Lease = { left: number; until: number; full: boolean };

/** Options of {@link leaseFrom}. */
export type LeaseOptions = {
  /** The limit's points per window. */
  points: number;
  /** Points taken at a time (at least 1; 1: every request asks the store). */
  block: number;
  now?: () => number;
};

/** A refusal that says how long until the window ends. */
const refusal = (msBeforeNext: number) => new RateLimiterRes(0, msBeforeNext, 0, false);

/** `shared`, taken from in blocks of `block` points and spent here. */
export function leaseFrom(shared: PointLimiter, { points, block, now = Date.now }: LeaseOptions): PointLimiter {
  const leases = new Map<string, Lease>();
  // One block asked for at a time per key: requests meanwhile wait for it, not ask for more.
  const asking = new Map<string, Promise<void>>();

  const ask = async (key: string) => {
    let granted = block;
    let res: RateLimiterRes;
    try {
      res = await shared.consume(key, block);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      res = error;
      // Over the limit with this block: what of it was still under the limit is ours.
      granted = Math.max(0, Math.min(block, points - (res.consumedPoints - block)));
    }
    leases.set(key, { left: granted, until: now() + res.msBeforeNext, full: granted < block });
  };

  const spend = async (key: string): Promise<RateLimiterRes> => {
    for (;;) {
      const lease = leases.get(key);
      const at = now();
      if (lease && lease.until > at) {
        if (lease.left > 0) {
          lease.left -= 1;
          return new RateLimiterRes(lease.left, lease.until - at, points - lease.left, false);
        }
        if (lease.full) throw refusal(lease.until - at);
      }
      let pending = asking.get(key);
      if (!pending) {
        pending = ask(key).finally(() => asking.delete(key));
        asking.set(key, pending);
      }
      await pending;
    }
  };

  // Dead windows are dropped as keys come and go: at most one lease per key seen in a window.
  const sweep = () => {
    const at = now();
    for (const [key, lease] of leases) if (lease.until <= at) leases.delete(key);
  };
  let spent = 0;

  return {
    consume: (key) => {
      spent += 1;
      if (spent % 1_024 === 0) sweep();
      return spend(String(key));
    },
    // A point given back (the global limit refused the request) goes back to this block.
    reward: async (key) => {
      const lease = leases.get(String(key));
      if (lease && lease.until > now()) lease.left += 1;
      return new RateLimiterRes(lease?.left ?? 0, 0, 0, false);
    },
  };
}
