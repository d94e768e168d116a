/**
 * The perimeter (SPEC X1, X2, X3, X8, ADR 028): what every request to `/api` and to the MCP
 * endpoints passes, in one order and with one table of answers, whether it arrives through the
 * Hono app (its middleware is a thin use of {@link Perimeter.admitRequest}) or on `node:http`
 * at the MCP endpoints (ADR 006). In order: the Host/Origin check (X2), the credentials (a
 * bearer token, or on `/api` the web UI's session cookie with its CSRF locks), the kinds of
 * token the endpoint takes, the rate limits (X3), and a declared body length over the limit
 * (X8). A security change is made here, once.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller, VerifyToken } from '../../guard/caller.js';
import { createOriginCheck, type OriginPolicy } from '../../guard/origin-policy.js';
import { sameSecret } from '../../guard/same-secret.js';
import { type RpcRefusal, writeJson, writeRefusal } from '../io/index.js';
import { type RateLimiter, type RateRefusal, tooManyRpcBody } from './rate-limit.js';
import { authorizationOf, BEARER_CHALLENGE, bearerCaller } from './require-token.js';
import type { UiSessions } from './ui-sessions.js';

/** The API's error codes the perimeter answers with. */
type PerimeterCode = 'forbidden' | 'unauthorized' | 'rate_limited' | 'payload_too_large';

/**
 * One refusal of the perimeter: its status and headers, the body `/api` answers (the one error
 * shape), and the JSON-RPC error the MCP endpoints answer instead where they speak JSON-RPC
 * (null: they answer the API's body too, byte for byte).
 */
export type PerimeterRefusal = {
  readonly status: 401 | 403 | 413 | 429;
  readonly headers: Readonly<Record<string, string>>;
  readonly api: { readonly error: { readonly code: PerimeterCode; readonly message: string } };
  readonly rpc: { readonly code: number; readonly message: string; readonly data?: unknown } | null;
  /** Whether the body is left unread and the connection closed after the answer (`closeAfterLinger`). */
  readonly closes: boolean;
};

const refusal = (
  status: PerimeterRefusal['status'],
  code: PerimeterCode,
  message: string,
  { headers = {}, rpc = null, closes = false }: Partial<Pick<PerimeterRefusal, 'headers' | 'rpc' | 'closes'>> = {},
): PerimeterRefusal => ({ status, headers, api: { error: { code, message } }, rpc, closes });

/** The table of the perimeter's answers, on `/api` and on the MCP endpoints alike. */
export const PERIMETER_ANSWERS = {
  /** X2: a Host or Origin header not allowed (DNS rebinding, a foreign page). */
  origin: (reason: string) => refusal(403, 'forbidden', reason),
  /** X1: no bearer token, a wrong one, or two. */
  unauthorized: (message: string) =>
    refusal(401, 'unauthorized', message, { headers: { 'www-authenticate': BEARER_CHALLENGE } }),
  /** A web UI session cookie whose session has ended (no challenge: the page signs in again). */
  uiSessionEnded: () => refusal(401, 'unauthorized', 'the web UI session has ended: sign in again'),
  /** A write with the session cookie that lacks the Origin header or the CSRF token. */
  crossSite: (message: string) => refusal(403, 'forbidden', message),
  /** A valid token of a kind this endpoint does not take. */
  tokenKind: (message: string) => refusal(403, 'forbidden', message),
  /** X3: over `limits.perClient` or `limits.global`. */
  rateLimited: ({ scope, retryAfterSeconds: seconds }: RateRefusal) =>
    refusal(429, 'rate_limited', `rate limit exceeded (${scope}): retry after ${seconds} s`, {
      headers: { 'retry-after': String(seconds) },
      rpc: tooManyRpcBody({ scope, retryAfterSeconds: seconds }, null).error,
    }),
  /** X8: a body over the endpoint's limit; the rest is not read. */
  tooLarge: (maxBytes: number) =>
    refusal(413, 'payload_too_large', `request body over ${maxBytes} bytes (http.maxBodyBytes)`, {
      rpc: { code: -32000, message: `Payload Too Large: Request body must not exceed ${maxBytes} bytes` },
      closes: true,
    }),
} as const;

/** What the perimeter reads of a request, from `node:http` or from Hono. */
export type PerimeterRequest = {
  readonly path: string;
  readonly method: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  /** The `Authorization` value, or each when it came more than once (`authorizationOf`). */
  readonly authorization: string | readonly string[] | undefined;
  readonly contentLength: string | undefined;
  /** The web UI's session cookie, where the endpoint takes it (`/api`) and no `Authorization` came. */
  readonly uiCookie?: string | undefined;
  readonly csrfToken?: string | undefined;
};

/** What the perimeter reads of a request on `node:http` (the MCP endpoints). */
export const nodeRequestOf = (req: IncomingMessage, path: string): PerimeterRequest => ({
  path,
  method: req.method ?? 'GET',
  host: req.headers.host,
  origin: req.headers.origin,
  // Each value: node keeps only the first of repeated Authorization headers in `headers`.
  authorization: authorizationOf(req.rawHeaders),
  contentLength: req.headers['content-length'],
});

/** What an endpoint asks of its requests beyond the Host/Origin check and a credential. */
export type EndpointRule = {
  /** Why `caller` may not use the endpoint at `path` (a 403 saying so); null when it may. */
  readonly forbid: (caller: Caller, path: string) => string | null;
  /** Whether its requests count against the rate limits. */
  readonly limited: boolean;
  /** The largest body it takes (read per request: the limit hot-reloads); null: not checked here. */
  readonly maxBodyBytes: (() => number) | null;
};

/** A request let in: its caller, and whether it came with the web UI's cookie (the audit labels its calls). */
export type Admitted = { readonly caller: Caller; readonly uiSession: boolean };

/** The perimeter of one service. */
export type Perimeter = {
  /** Let a request in, or say which answer of {@link PERIMETER_ANSWERS} refuses it. */
  admitRequest(request: PerimeterRequest, rule: EndpointRule): Promise<Admitted | PerimeterRefusal>;
  /** The Host/Origin check alone (the web UI's pages, `/readyz`); null when allowed. */
  checkOrigin(request: Pick<PerimeterRequest, 'host' | 'origin'>): PerimeterRefusal | null;
};

/** What the perimeter needs. */
export type PerimeterDeps = {
  /** Maps a bearer token to its caller (the admin token and issued tokens). */
  verify: VerifyToken;
  /** The rate limits the API and the MCP endpoints share. */
  limiter: RateLimiter;
  /** The allowed hosts and origins (hot-reloaded). */
  policy: () => OriginPolicy;
  /** The port listened on: turns on the Host/Origin check (off for in-process tests). */
  port?: (() => number) | undefined;
  /** The web UI's sign-in sessions: their cookie then stands for the admin token where a request gives one. */
  uiSessions?: UiSessions | undefined;
};

/** The header that carries a web UI session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

/** The methods a session cookie may use without the CSRF locks. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ADMIN: Caller = { kind: 'admin' };

/** Create the perimeter. */
export function createPerimeter({ verify, limiter, policy, port, uiSessions }: PerimeterDeps): Perimeter {
  const originCheck = createOriginCheck();
  const checkOrigin = (request: Pick<PerimeterRequest, 'host' | 'origin'>): PerimeterRefusal | null => {
    if (!port) return null;
    const verdict = originCheck(request, port(), policy());
    return verdict.ok ? null : PERIMETER_ANSWERS.origin(verdict.reason);
  };
  /** The caller of a request that came with the session cookie, or the refusal (SPEC A3). */
  const cookieCaller = (request: PerimeterRequest, cookie: string): Admitted | PerimeterRefusal => {
    const session = uiSessions?.find(cookie);
    if (!session) return PERIMETER_ANSWERS.uiSessionEnded();
    if (!SAFE_METHODS.has(request.method)) {
      // Three locks against a cross-site write: SameSite=Strict, an Origin header, the CSRF token.
      if (request.origin === undefined)
        return PERIMETER_ANSWERS.crossSite('a write with the session cookie needs an Origin header');
      const token = request.csrfToken;
      if (token === undefined || !sameSecret(token, session.csrfToken))
        return PERIMETER_ANSWERS.crossSite(`a write with the session cookie needs the session's ${CSRF_HEADER} header`);
    }
    return { caller: ADMIN, uiSession: true };
  };
  return {
    checkOrigin,
    async admitRequest(request, rule) {
      const foreign = checkOrigin(request);
      if (foreign) return foreign;
      let admitted: Admitted;
      if (request.uiCookie !== undefined && request.authorization === undefined && uiSessions) {
        const verdict = cookieCaller(request, request.uiCookie);
        if ('status' in verdict) return verdict;
        admitted = verdict;
      } else {
        const verdict = await bearerCaller(request.authorization, verify);
        if ('refusal' in verdict) return PERIMETER_ANSWERS.unauthorized(verdict.refusal.error.message);
        admitted = { caller: verdict.caller, uiSession: false };
      }
      const forbidden = rule.forbid(admitted.caller, request.path);
      if (forbidden !== null) return PERIMETER_ANSWERS.tokenKind(forbidden);
      if (rule.limited) {
        const limited = await limiter.take(admitted.caller);
        if (limited) return PERIMETER_ANSWERS.rateLimited(limited);
      }
      // A declared length over the limit is refused before the body is touched; a body of
      // unknown length is bounded where it is read.
      if (rule.maxBodyBytes && Number(request.contentLength) > rule.maxBodyBytes())
        return PERIMETER_ANSWERS.tooLarge(rule.maxBodyBytes());
      return admitted;
    },
  };
}

/** Whether an admission is a refusal. */
export const isRefusal = (admission: Admitted | PerimeterRefusal): admission is PerimeterRefusal =>
  'status' in admission;

/** A refusal as the MCP endpoints' JSON-RPC error (a body of unknown length found over the limit as it is read). */
export function rpcRefusalOf(refused: PerimeterRefusal): RpcRefusal {
  const { code, message } = refused.rpc ?? { code: -32000, message: refused.api.error.message };
  return { status: refused.status, code, message, headers: refused.headers };
}

/**
 * Answer a refusal on `node:http` as the MCP endpoints do: the JSON-RPC error where the table
 * has one (`id`: the request's, when its body was read for it), else the API's body.
 */
export function writePerimeterRefusal(
  res: ServerResponse,
  refused: PerimeterRefusal,
  id: string | number | null = null,
): void {
  if (!refused.rpc) {
    writeJson(res, refused.status, refused.api, refused.headers);
    return;
  }
  const { code, message, data } = refused.rpc;
  writeRefusal(res, { status: refused.status, code, message, headers: refused.headers }, { id, data });
}
