import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Caller, VerifyToken } from '../../guard/caller.js';
import { closeAfterLinger } from '../io/index.js';
import { CSRF_HEADER, type EndpointRule, isRefusal, type Perimeter, type PerimeterRequest } from './admit-request.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by {@link requireToken} on every authenticated request. */
    caller: Caller;
    /** Set when the request came with the web UI's session cookie: the audit labels its test calls. */
    uiSession: boolean;
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

/**
 * The Hono app's use of the perimeter (`admit-request.ts`, ADR 028): admit each request by
 * `rule` (the bearer token, or with `cookieName` the web UI's session cookie; the token's
 * kind; the rate limits; the body limit) and set `caller`, or answer the perimeter's refusal.
 */
export function requireToken({
  perimeter,
  rule,
  cookieName,
}: {
  perimeter: Perimeter;
  rule: EndpointRule;
  /** The web UI's session cookie (`/api`): it stands for the admin token when no `Authorization` came. */
  cookieName?: () => string;
}): MiddlewareHandler {
  return async function requireToken(c, next) {
    const authorization = c.req.header('authorization');
    const request: PerimeterRequest = {
      path: c.req.path,
      method: c.req.method,
      host: c.req.header('host'),
      origin: c.req.header('origin'),
      authorization,
      contentLength: c.req.header('content-length'),
      uiCookie: cookieName && authorization === undefined ? getCookie(c, cookieName()) : undefined,
      csrfToken: c.req.header(CSRF_HEADER),
    };
    const admitted = await perimeter.admitRequest(request, rule);
    if (isRefusal(admitted)) {
      const node = c.env as Partial<HttpBindings> | undefined;
      if (admitted.closes && node?.incoming && node.outgoing) closeAfterLinger(node.incoming, node.outgoing);
      return c.json(admitted.api, admitted.status, admitted.headers);
    }
    c.set('caller', admitted.caller);
    if (admitted.uiSession) c.set('uiSession', true);
    await next();
    return undefined;
  };
}

/** Only the admin token drives the control API: a valid token for the MCP endpoints is told so (403). */
export const adminOnly = (caller: Caller): string | null =>
  caller.kind === 'admin' ? null : 'this token is for the MCP endpoints';
