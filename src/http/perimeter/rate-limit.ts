/**
 * Rate limits (SPEC X3, section 7): `limits.perClient` and `limits.global`, each
 * `{ "requests": N, "perSeconds": S }`, on `/api/*` and the `/mcp` endpoints. Runs after
 * the token check, so the caller is known: the admin token counts as one client (`admin`),
 * every other token as its own (`token:<tokenId>`). Over a limit: the perimeter's 429 with
 * `Retry-After` (`admit-request.ts`), a JSON-RPC error on `/mcp` and the one API error shape on `/api`.
 *
 * A single service keeps the counters in its memory (`RateLimiterMemory`). Replicas on one
 * PostgreSQL (issue 22, ADR 042) are given a {@link SharedLimiters}: each limit then counts
 * in a table they share, with an in-memory `insuranceLimiter` that answers whenever the
 * database does not (each replica then applies the configured numbers alone).
 * @module
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../../config/schema.js';
import type { Caller } from '../../guard/caller.js';
import { leaseFrom, type PointLimiter } from './leased-limiter.js';

type Limits = Pick<AppConfig['limits'], 'perClient' | 'global'>;
type Limit = NonNullable<Limits['perClient']>;
type Scope = 'client' | 'global';

/** The limiter key for a caller: one budget for the admin token, one per issued token. */
export function rateLimitKey(caller: Caller): string {
  return caller.kind === 'admin' ? 'admin' : `token:${caller.tokenId}`;
}

/** Makes a limiter over the store the replicas share, given its in-memory insurance (ADR 042). */
export type SharedLimiters = (options: {
  keyPrefix: string;
  points: number;
  duration: number;
  insuranceLimiter: RateLimiterMemory;
}) => RateLimiterAbstract;

/**
 * A replica takes this share of a shared limit at a time (ADR 042): five replicas' unspent
 * blocks at a window's end stay within the ±10 % issue 22 allows; a limit under 50 is asked
 * for request by request.
 */
const BLOCK_SHARE = 50;

/**
 * `perSeconds` may be fractional (`0.5` = per half second). The stores keep millisecond
 * expiries, so the window is `perSeconds` rounded to the whole millisecond (at least 1 ms);
 * `Retry-After` is still whole seconds, rounded up, at least 1.
 */
function limiterFor(
  limit: Limit | undefined,
  keyPrefix: string,
  shared: SharedLimiters | undefined,
): PointLimiter | null {
  if (!limit) return null;
  const duration = Math.max(1, Math.round(limit.perSeconds * 1000)) / 1000;
  const points = limit.requests;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (!shared) return memory;
  const store = shared({ keyPrefix, points, duration, insuranceLimiter: memory });
  return leaseFrom(store, { points, block: Math.max(1, Math.floor(points / BLOCK_SHARE)) });
}

/** Whole seconds until the window frees a request: at least 1. */
export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/** The id of a parsed single JSON-RPC request, or null (a batch, a notification). */
export function requestIdOf(body: unknown): string | number | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The refusal of a request over a limit: `Retry-After` and what the body says. */
export type RateRefusal = { readonly scope: Scope; readonly retryAfterSeconds: number };

/** The JSON-RPC error body of a refused MCP request (`id` from its body when it has one). */
export function tooManyRpcBody({ scope, retryAfterSeconds: seconds }: RateRefusal, id: string | number | null) {
  return {
    jsonrpc: '2.0' as const,
    error: {
      code: -32000,
      message: `rate limit exceeded: retry after ${seconds} s`,
      data: { retryAfterSeconds: seconds, scope },
    },
    id,
  };
}

/** Take one point from `limiter` for `key`; the wait in ms when refused, null when allowed. */
async function take(limiter: PointLimiter, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return refused.msBeforeNext;
    throw refused;
  }
}

/** The limits of every caller, shared by the API and the MCP endpoints. */
export type RateLimiter = {
  /** Count one request of `caller`; the refusal when it is over a limit, null when served. */
  take(caller: Caller): Promise<RateRefusal | null>;
};

/**
 * Create the limiter. `limits` is read on every request; when it changes (a hot reload)
 * both limiters are rebuilt, which starts fresh counters in memory (a shared store keeps
 * its counters). No limit configured, no limiting. `shared`: count across the fleet.
 */
export function createRateLimiter({ limits, shared }: { limits: () => Limits; shared?: SharedLimiters }): RateLimiter {
  let seenLimits: Limits | undefined;
  let seen: string | undefined;
  let perClient: PointLimiter | null = null;
  let global: PointLimiter | null = null;

  const current = () => {
    const now = limits();
    // The config object changes only on a reload: compare its JSON only then.
    if (now === seenLimits) return;
    seenLimits = now;
    // Only the rate limits: a change to `limits.inFlight` (ADR 022) keeps the counters.
    const json = JSON.stringify({ perClient: now?.perClient, global: now?.global });
    if (json === seen) return;
    seen = json;
    perClient = limiterFor(now?.perClient, 'client', shared);
    global = limiterFor(now?.global, 'global', shared);
  };

  return {
    async take(caller) {
      current();
      if (!perClient && !global) return null;
      const key = rateLimitKey(caller);
      if (perClient) {
        const wait = await take(perClient, key);
        if (wait !== null) return { scope: 'client', retryAfterSeconds: retryAfterSeconds(wait) };
      }
      // Only a request the client limit allowed reaches the global one, so a throttled
      // client does not eat the shared budget.
      if (global) {
        const wait = await take(global, 'all');
        if (wait !== null) {
          // Refused globally: give the client its point back, the request was not served.
          await perClient?.reward(key).catch(() => undefined);
          return { scope: 'global', retryAfterSeconds: retryAfterSeconds(wait) };
        }
      }
      return null;
    },
  };
}
