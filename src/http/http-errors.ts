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
  upstream_timeout: 504,
  unattributed: 409,
  unsupported: 501,
  budget_spent: 429,
  rate_limited: 429,
  unauthorized: 401,
  forbidden: 403,
  bad_request: 400,
  conflict: 409,
  payload_too_large: 413,
  home_in_use: 409,
  internal: 500,
};

/** Build the JSON error response for anything thrown inside a route. */
export function toErrorResponse(error: unknown, c: Context, log: Logger): Response {
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
    return c.json({ error: { code: 'bad_request', message: 'invalid request body', issues } }, 400);
  }
  if (error instanceof HubError) {
    if (error instanceof RateLimitedError) c.header('Retry-After', String(error.retryAfterSeconds));
    const issues = error instanceof ConfigError ? error.issues : undefined;
    return c.json(
      { error: { code: error.code, message: error.message, ...(issues ? { issues } : {}) } },
      STATUS[error.code],
    );
  }
  log.error({ err: error, path: c.req.path }, 'request failed');
  return c.json({ error: { code: 'internal', message: 'internal error' } }, 500);
}
