import type { MiddlewareHandler } from 'hono';
import type { Caller, VerifyToken } from '../guard/caller.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by {@link requireToken} on every authenticated request. */
    caller: Caller;
  }
}

/** The `WWW-Authenticate` challenge sent with every 401. */
export const BEARER_CHALLENGE = 'Bearer realm="boternity"';

type Unauthorized = { refusal: { error: { code: 'unauthorized'; message: string } } };

const unauthorized = (message: string): Unauthorized => ({ refusal: { error: { code: 'unauthorized', message } } });

/** How many values an `Authorization` header carries: several headers, or one joined with commas. */
const valueCount = (header: string | readonly string[]): number => {
  if (typeof header !== 'string') return header.reduce((n, value) => n + valueCount(value), 0);
  // A token (RFC 6750 b64token) has no comma: one is where two values were joined.
  let count = 1;
  for (let at = header.indexOf(','); at >= 0; at = header.indexOf(',', at + 1)) count += 1;
  return count;
};

/**
 * A request's `Authorization` values as {@link bearerCaller} takes them: the one value, or
 * each when it came more than once (node keeps only the first in `headers`). Read from
 * `rawHeaders`: node's `headersDistinct` builds an object of every header on each request.
 */
export function authorizationOf(rawHeaders: readonly string[]): string | string[] | undefined {
  let found: string | string[] | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length !== 13 || name.toLowerCase() !== 'authorization') continue;
    const value = rawHeaders[i + 1] as string;
    found = found === undefined ? value : typeof found === 'string' ? [found, value] : [...found, value];
  }
  return found;
}

/**
 * The caller behind an `Authorization` header, or the 401 body that says what is wrong.
 * `header` is its value, or each value when it came more than once ({@link authorizationOf}).
 */
export async function bearerCaller(
  header: string | readonly string[] | undefined,
  verify: VerifyToken,
): Promise<{ caller: Caller } | Unauthorized> {
  if (header === undefined || header.length === 0) return unauthorized('missing bearer token');
  const values = valueCount(header);
  // Which of two would be the caller is not for us to guess.
  if (values > 1) return unauthorized(`the Authorization header has ${values} values; send one: Bearer <token>`);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(typeof header === 'string' ? header : (header[0] ?? ''));
  if (!match?.[1]) return unauthorized('missing bearer token');
  const caller = await verify(match[1]);
  return caller ? { caller } : unauthorized('invalid bearer token');
}

/** Bearer-token check (SPEC X1): 401 with `WWW-Authenticate` when missing or wrong; sets `caller`. */
export function requireToken({ verify }: { verify: VerifyToken }): MiddlewareHandler {
  return async function requireToken(c, next) {
    const verdict = await bearerCaller(c.req.header('authorization'), verify);
    if ('refusal' in verdict) {
      c.header('WWW-Authenticate', BEARER_CHALLENGE);
      return c.json(verdict.refusal, 401);
    }
    c.set('caller', verdict.caller);
    await next();
    return undefined;
  };
}

/**
 * After {@link requireToken}: only the admin token drives the control API. A valid token for
 * the MCP endpoints (a client's or a bot's) is told so with 403, not mistaken for a bad one.
 */
export function requireAdmin(): MiddlewareHandler {
  return async function requireAdmin(c, next) {
    if (c.get('caller').kind !== 'admin') {
      return c.json({ error: { code: 'forbidden', message: 'this token is for the MCP endpoints' } }, 403);
    }
    await next();
    return undefined;
  };
}
