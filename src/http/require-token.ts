import type { MiddlewareHandler } from 'hono';
import { sameSecret } from '../guard/same-secret.js';

/** Bearer-token check (SPEC X1): 401 with `WWW-Authenticate` when missing or wrong. */
export function requireToken({ adminToken }: { adminToken: string }): MiddlewareHandler {
  return async function requireToken(c, next) {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1] || !sameSecret(match[1], adminToken)) {
      c.header('WWW-Authenticate', 'Bearer realm="boternity"');
      return c.json(
        { error: { code: 'unauthorized', message: match ? 'invalid bearer token' : 'missing bearer token' } },
        401,
      );
    }
    await next();
    return undefined;
  };
}
