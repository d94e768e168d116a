/**
 * The one mapping from local errors to HTTP (issue 20, ADR 029): the status of the code's row
 * in `ERROR_TABLE` (`errors/error-table.ts`), the headers that say when to retry, and one
 * error shape, `{ "error": { "code", "message", "issues"? } }`. The MCP endpoints' refusals
 * (`session-refusal.ts`) take their status and headers from here too.
 * @module
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { formatJsonPath } from '../../config/config-issues.js';
import {
  BotInputError,
  ConfigError,
  type ConfigIssue,
  ERROR_TABLE,
  HubError,
  type HubErrorCode,
  InvalidCredentialNameError,
  RateLimitedError,
  SessionLimitError,
  ShuttingDownError,
} from '../../errors.js';

/**
 * The status and headers of a local error over HTTP: its code's row in `ERROR_TABLE`, and
 * what says when to retry (a rate limit's `Retry-After`; a session cap's one second) or
 * that the connection goes (the service stopping). The service's own session cap is 503,
 * not 429: no client of this token did anything wrong.
 */
export function httpAnswerOf(error: HubError): { status: ContentfulStatusCode; headers: Record<string, string> } {
  const status = (
    error instanceof SessionLimitError && error.which === 'total' ? 503 : ERROR_TABLE[error.code].status
  ) as ContentfulStatusCode;
  if (error instanceof RateLimitedError) return { status, headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  if (error instanceof SessionLimitError) return { status, headers: { 'Retry-After': '1' } };
  if (error instanceof ShuttingDownError) return { status, headers: { Connection: 'close' } };
  return { status, headers: {} };
}

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
  const { status, headers } = httpAnswerOf(error);
  // A bot verb's own validation (or the keystore's name check) names each field, as the route schemas' does.
  const named = error instanceof BotInputError || error instanceof InvalidCredentialNameError;
  const issues = named && error.issues.length > 0 ? { issues: error.issues } : {};
  const body =
    error instanceof ConfigError
      ? { error: { code: error.code, message: oneLine(error.message), issues: error.issues.map(apiIssue) } }
      : { error: { code: error.code, message: error.message, ...issues } };
  return { status, body, headers };
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
