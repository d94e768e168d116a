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

/** The caller behind an `Authorization` header, or the 401 body that says what is wrong. */
export async function bearerCaller(
  header: string | undefined,
  verify: VerifyToken,
): Promise<{ caller: Caller } | { refusal: { error: { code: 'unauthorized'; message: string } } }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const caller = match?.[1] ? await verify(match[1]) : null;
  if (caller) return { caller };
  return {
    refusal: { error: { code: 'unauthorized', message: match ? 'invalid bearer token' : 'missing bearer token' } },
  };
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
