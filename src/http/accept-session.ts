/**
 * The web UI's session cookie as a way into `/api` (SPEC A3, X1): a request with no
 * `Authorization` header but a live session cookie is the admin, as if it carried the admin
 * token. A write (any method but GET/HEAD/OPTIONS) must also carry an `Origin` header (the
 * Host/Origin check has already allowed it) and the session's CSRF token in `X-CSRF-Token`,
 * on top of the cookie's `SameSite=Strict`: three independent locks against cross-site
 * requests. A request with a bearer token, or with no cookie, goes to the bearer check.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { sameSecret } from '../guard/same-secret.js';
import type { UiSessions } from './ui-sessions.js';

/** The header that carries a session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'hono' {
  interface ContextVariableMap {
    /** Set when the request came with the web UI's session cookie: the audit labels its test calls. */
    uiSession: boolean;
  }
}

/** Options of {@link acceptSession}. */
export type AcceptSessionOptions = {
  sessions: UiSessions;
  /** The cookie's name (it carries the port: browsers share cookies across a host's ports). */
  cookieName: () => string;
  /** The bearer-token check, for every request that does not use the cookie. */
  bearer: MiddlewareHandler;
};

/** Accept a UI session cookie (and, for writes, its CSRF token) as the admin; else the bearer check. */
export function acceptSession({ sessions, cookieName, bearer }: AcceptSessionOptions): MiddlewareHandler {
  const refuse = (c: Context, status: 401 | 403, message: string) =>
    c.json({ error: { code: status === 401 ? 'unauthorized' : 'forbidden', message } }, status);
  return async function acceptSession(c, next) {
    const id = c.req.header('authorization') === undefined ? getCookie(c, cookieName()) : undefined;
    if (id === undefined) return bearer(c, next);
    const session = sessions.find(id);
    if (!session) return refuse(c, 401, 'the web UI session has ended: sign in again');
    if (!SAFE_METHODS.has(c.req.method)) {
      if (c.req.header('origin') === undefined)
        return refuse(c, 403, 'a write with the session cookie needs an Origin header');
      const token = c.req.header(CSRF_HEADER);
      if (token === undefined || !sameSecret(token, session.csrfToken))
        return refuse(c, 403, `a write with the session cookie needs the session's ${CSRF_HEADER} header`);
    }
    c.set('caller', { kind: 'admin' });
    c.set('uiSession', true);
    await next();
    return undefined;
  };
}
