/**
 * The one place where a failure on the call path becomes what the agent (or an upstream
 * asking us) receives: a JSON-RPC error, or, for `tools/call`, a failed tool result (G4).
 * Local errors are `src/errors.ts` classes; an upstream's own errors arrive as `McpError`.
 * @module
 */
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_TABLE, HubError, InFlightCapError, InFlightWaitTimeoutError, RateLimitedError } from '../../errors.js';
import { sanitizeUpstreamText } from './sanitize-requests.js';

/**
 * An error as the agent receives it: the SDK sends `code` and `message` as they are, so
 * this carries no "MCP error N:" prefix (an McpError would get it twice on the far side).
 * `local` is the local error it was mapped from, if any: a caller inside the service (the
 * test-tool route) answers that one, never the text.
 */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly local: HubError | null = null,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

/** A failure answered as a JSON-RPC error; `internal` is our own failure, to be logged (the agent gets no details). */
export type ErrorAnswer = { readonly kind: 'error'; readonly error: WireError; readonly internal: unknown };

/** How a failure is answered. */
export type FailureAnswer = ErrorAnswer | { readonly kind: 'result'; readonly result: CallToolResult };

/** A request's params schema (the SDK's): what `safeParse` gives is all that is used of it. */
export type ParamsSchema<P> = {
  safeParse(value: unknown): { success: true; data: P } | { success: false; error: ParamsIssues };
};

/** The issues of a failed schema check, as zod gives them. */
export type ParamsIssues = {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
};

/** Where an issue is, each step cut short: a key is the agent's text, of any length. */
const where = (path: readonly PropertyKey[]): string =>
  path.length === 0 ? '' : `${path.map((step) => String(step).slice(0, 64)).join('.')}: `;

/**
 * A request whose params fail their schema: the agent's fault, so -32602 (not the SDK's
 * -32603 with every zod issue as JSON), in one line naming the first issue and where it is.
 */
export function invalidParams(method: string, error: ParamsIssues): WireError {
  const issue = error.issues[0];
  const what = issue ? `${where(issue.path)}${issue.message.slice(0, 200)}` : 'malformed';
  return new WireError(ErrorCode.InvalidParams, `invalid ${method} params: ${what}`.replaceAll('\n', ' '));
}

/**
 * The one mapping of a local error to the wire (issue 20, ADR 029): the JSON-RPC code of its
 * code's row in `ERROR_TABLE`, its message, and the data a program reads (a rate limit's
 * `retryAfterSeconds`). Null for a code no MCP request should meet (the table's `rpc: null`):
 * our own failure, answered as such by {@link answerFailure}.
 */
export function toWireError(error: HubError): WireError | null {
  const { rpc } = ERROR_TABLE[error.code];
  if (rpc === null) return null;
  // A request that waited for a place was never sent: the message says which cap held it;
  // any other timeout is said as the SDK says its own.
  if (error.code === 'upstream_timeout' && !(error instanceof InFlightWaitTimeoutError))
    return new WireError(rpc, 'Request timed out', undefined, error);
  return new WireError(rpc, error.message, wireData(error), error);
}

/** Map anything thrown on the call path; internal failures never become InvalidParams. */
export function answerFailure(error: unknown, asToolResult: false): ErrorAnswer;
export function answerFailure(error: unknown, asToolResult: boolean): FailureAnswer;
export function answerFailure(error: unknown, asToolResult: boolean): FailureAnswer {
  if (error instanceof HubError) {
    // Upstream trouble is a failed tool call, not a protocol error: the model can read it (G4).
    if (asToolResult && ERROR_TABLE[error.code].toolResult)
      return { kind: 'result', result: { isError: true, content: [{ type: 'text', text: error.message }] } };
    const wire = toWireError(error);
    if (wire) return { kind: 'error', error: wire, internal: null };
  }
  if (error instanceof WireError) return { kind: 'error', error, internal: null };
  if (error instanceof McpError) {
    // An upstream's (or an agent's) error text is passed on like a result would be: sanitized (X4).
    const message = sanitizeUpstreamText(error.message.replace(/^MCP error -?\d+: /, ''), 2_000);
    return { kind: 'error', error: new WireError(error.code, message), internal: null };
  }
  return {
    kind: 'error',
    error: new WireError(ErrorCode.InternalError, 'internal error in boternity'),
    internal: error,
  };
}

/** What a refusal tells a program besides its message: as the rate limits' 429 body does. */
function wireData(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof InFlightCapError)
    return {
      retryAfterSeconds: error.retryAfterSeconds,
      scope: 'in_flight',
      setting: 'limits.inFlight.queuePerToken',
      limit: error.queueLimit,
      waitingFor: error.cap.setting,
    };
  if (error instanceof RateLimitedError) return { retryAfterSeconds: error.retryAfterSeconds };
  return undefined;
}
