/**
 * Rate limits (SPEC X3, section 7): `limits.perClient` and `limits.global`, each
 * `{ "requests": N, "perSeconds": S }`, on `/api/*` and the `/mcp` endpoints. Runs after
 * the token check, so the caller is known: the admin token counts as one client (`admin`),
 * every other token as its own (`token:<tokenId>`). Over a limit: 429 with `Retry-After`,
 * a JSON-RPC error on `/mcp` and the one API error shape on `/api`.
 *
 * The counters live in this process's memory (`RateLimiterMemory`). rate-limiter-flexible
 * offers shared stores (Redis, Postgres, Memcached, ...) with the same `consume` API, for
 * when several instances must share one budget.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/schema.js';
import type { Caller } from '../guard/caller.js';

type Limits = AppConfig['limits'];
type Limit = NonNullable<Limits['perClient']>;
type Scope = 'client' | 'global';

/** The limiter key for a caller: one budget for the admin token, one per issued token. */
export function rateLimitKey(caller: Caller): string {
  return caller.kind === 'admin' ? 'admin' : `token:${caller.tokenId}`;
}

/**
 * `perSeconds` may be fractional (`0.5` = per half second). The memory store keeps
 * millisecond expiries, so the window is `perSeconds` rounded to the whole millisecond
 * (at least 1 ms); `Retry-After` is still whole seconds, rounded up, at least 1.
 */
function limiterFor(limit: Limit | undefined, keyPrefix: string): RateLimiterMemory | null {
  if (!limit) return null;
  const duration = Math.max(1, Math.round(limit.perSeconds * 1000)) / 1000;
  return new RateLimiterMemory({ keyPrefix, points: limit.requests, duration });
}

/** Whole seconds until the window frees a request: at least 1. */
export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/** The id of a single JSON-RPC request, or null (a batch, a notification, not JSON). */
export function jsonRpcRequestId(text: string): string | number | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Whether the request is for an MCP endpoint (JSON-RPC errors) rather than the API. */
const isMcpPath = (path: string) => path === '/mcp' || path.startsWith('/mcp/');

async function tooMany(c: Context, scope: Scope, seconds: number): Promise<Response> {
  c.header('Retry-After', String(seconds));
  if (!isMcpPath(c.req.path)) {
    return c.json(
      { error: { code: 'rate_limited', message: `rate limit exceeded (${scope}): retry after ${seconds} s` } },
      429,
    );
  }
  const id = c.req.method === 'POST' ? jsonRpcRequestId(await c.req.text().catch(() => '')) : null;
  return c.json(
    {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `rate limit exceeded: retry after ${seconds} s`,
        data: { retryAfterSeconds: seconds, scope },
      },
      id,
    },
    429,
  );
}

/** Take one point from `limiter` for `key`; the wait in ms when refused, null when allowed. */
async function take(limiter: RateLimiterMemory, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return refused.msBeforeNext;
    throw refused;
  }
}

/**
 * The rate-limit middleware. `limits` is read on every request; when its JSON changes (a hot
 * reload) both limiters are rebuilt, which also starts fresh counters. No limit configured,
 * no limiting.
 */
export function rateLimit({ limits }: { limits: () => Limits }): MiddlewareHandler {
  let seen: string | undefined;
  let perClient: RateLimiterMemory | null = null;
  let global: RateLimiterMemory | null = null;
  // Hono's `/mcp/*` also matches `/mcp`, so the middleware may be mounted twice on one
  // request: each request is counted once.
  const counted = new WeakSet<Request>();

  const current = () => {
    const now = limits();
    const json = JSON.stringify(now ?? {});
    if (json !== seen) {
      seen = json;
      perClient = limiterFor(now?.perClient, 'client');
      global = limiterFor(now?.global, 'global');
    }
    return { perClient, global };
  };

  return async function rateLimit(c, next) {
    if (counted.has(c.req.raw)) return next();
    counted.add(c.req.raw);
    const { perClient, global } = current();
    if (perClient || global) {
      const key = rateLimitKey(c.get('caller'));
      if (perClient) {
        const wait = await take(perClient, key);
        if (wait !== null) return tooMany(c, 'client', retryAfterSeconds(wait));
      }
      // Only a request the client limit allowed reaches the global one, so a throttled
      // client does not eat the shared budget.
      if (global) {
        const wait = await take(global, 'all');
        if (wait !== null) {
          // Refused globally: give the client its point back, the request was not served.
          await perClient?.reward(key).catch(() => undefined);
          return tooMany(c, 'global', retryAfterSeconds(wait));
        }
      }
    }
    await next();
    return undefined;
  };
}
