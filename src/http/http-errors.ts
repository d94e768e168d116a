/**
 * The single mapper from local errors to HTTP responses, with one error shape:
 * `{ "error": { "code", "message", "issues"? } }`.
 * @module
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { ConfigError, HubError, type HubErrorCode, RateLimitedError } from '../errors.js';

const STATUS: Record<HubErrorCode, ContentfulStatusCode> = {
  config_invalid: 400,
  config_unreadable: 400,
  unknown_server: 404,
  not_found: 404,
  unknown_bot: 404,
  upstream_unavailable: 503,
  upstream_failed: 502,
  rate_limited: 429,
  unauthorized: 401,
  forbidden: 403,
  bad_request: 400,
  home_in_use: 409,
  internal: 500,
};

/** The status, body and headers of a local error in the one error shape; null for anything unexpected. */
export function errorReply(
  error: unknown,
): { status: ContentfulStatusCode; body: { error: Record<string, unknown> }; headers: Record<string, string> } | null {
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
    return {
      status: 400,
      body: { error: { code: 'bad_request', message: 'invalid request body', issues } },
      headers: {},
    };
  }
  if (!(error instanceof HubError)) return null;
  const issues = error instanceof ConfigError ? error.issues : undefined;
  return {
    status: STATUS[error.code],
    body: { error: { code: error.code, message: error.message, ...(issues ? { issues } : {}) } },
    headers: error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : {},
  };
}

/** Build the JSON error response for anything thrown inside a route. */
export function toErrorResponse(error: unknown, c: Context, log: Logger): Response {
  const reply = errorReply(error);
  if (reply) return c.json(reply.body, reply.status, reply.headers);
  log.error({ err: error, path: c.req.path }, 'request failed');
  return c.json({ error: { code: 'internal', message: 'internal error' } }, 500);
}
