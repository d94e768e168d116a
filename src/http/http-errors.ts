/**
 * The single mapper from local errors to HTTP responses, with one error shape:
 * `{ "error": { "code", "message", "issues"? } }`.
 * @module
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { formatJsonPath } from '../config/config-issues.js';
import {
  BotInputError,
  ConfigError,
  type ConfigIssue,
  HubError,
  type HubErrorCode,
  RateLimitedError,
} from '../errors.js';

const STATUS: Record<HubErrorCode, ContentfulStatusCode> = {
  config_invalid: 400,
  config_unreadable: 400,
  // The request is fine; the file on disk it would be written into is not (fix it, then retry).
  config_file_invalid: 409,
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
  session_limit: 429,
  shutting_down: 503,
  request_ended: 409,
  internal: 500,
};

/** Why hono refused a request before a route saw it (a body that is not JSON, the wrong media type). */
const HTTP_REFUSALS: Readonly<Record<number, { code: HubErrorCode; message: string }>> = Object.freeze({
  400: { code: 'bad_request', message: 'request body is not valid JSON' },
  413: { code: 'payload_too_large', message: 'request body too large' },
  415: { code: 'bad_request', message: 'request body must be JSON (Content-Type: application/json)' },
});

/** A config issue with its full path as the field, as the API reports it. */
const apiIssue = (issue: ConfigIssue) => ({
  field:
    issue.server === null
      ? issue.field
      : `${formatJsonPath(['mcpServers', issue.server])}${issue.field === '' || issue.field.startsWith('[') ? '' : '.'}${issue.field}`,
  server: issue.server,
  message: issue.message,
  ...(issue.line === undefined ? {} : { line: issue.line, column: issue.column }),
});

/** A multi-line config error as one line: `<file>: invalid config: a.b: why; c: why`. */
const oneLine = (message: string) => message.replace(/\n\s+/, ': ').replace(/\n\s+/g, '; ');

/**
 * The status, body and headers of a local error in the one error shape (for a handler
 * outside hono, such as the MCP endpoints); null for anything unexpected.
 */
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
  const headers: Record<string, string> =
    error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
  // A bot verb's own validation names each field, as the route schemas' does.
  const issues = error instanceof BotInputError && error.issues.length > 0 ? { issues: error.issues } : {};
  const body =
    error instanceof ConfigError
      ? { error: { code: error.code, message: oneLine(error.message), issues: error.issues.map(apiIssue) } }
      : { error: { code: error.code, message: error.message, ...issues } };
  return { status: STATUS[error.code], body, headers };
}

/** Build the JSON error response for anything thrown inside a route. */
export function toErrorResponse(error: unknown, c: Context, log: Logger): Response {
  const reply = errorReply(error);
  if (reply) return c.json(reply.body, reply.status, reply.headers);
  if (error instanceof HTTPException && HTTP_REFUSALS[error.status]) {
    const refusal = HTTP_REFUSALS[error.status] as { code: HubErrorCode; message: string };
    return c.json({ error: refusal }, error.status as ContentfulStatusCode);
  }
  log.error({ err: error, path: c.req.path }, 'request failed');
  return c.json({ error: { code: 'internal', message: 'internal error' } }, 500);
}
