/**
 * Local errors of boternity. Wire errors (MCP `McpError`, HTTP statuses) are mapped from
 * these at the edges: `http/http-errors.ts` and the gateway.
 * @module
 */

import { HubError } from './errors/hub-error.js';

export * from './errors/bot-errors.js';
export * from './errors/cli-errors.js';
export * from './errors/config-errors.js';
export * from './errors/error-table.js';
export * from './errors/gateway-errors.js';
export { HubError, type HubErrorCode } from './errors/hub-error.js';
export * from './errors/storage-errors.js';
export * from './errors/system-code-of.js';
export * from './errors/upstream-errors.js';

/**
 * A config file that cannot be read or does not validate. `issues` name path and field.
 * `config_file_invalid`: an edit refused because the file on disk, which it would build on, is
 * one the service refuses (fix or revert the file first).
 */
export class ConfigError extends HubError {
  constructor(
    message: string,
    readonly file: string | null,
    readonly issues: readonly ConfigIssue[] = [],
    options?: { cause?: unknown; code?: 'config_invalid' | 'config_unreadable' | 'config_file_invalid' },
  ) {
    super(options?.code ?? 'config_invalid', message, options);
  }
}

/** One problem in a config file: `server` is null for top-level fields; `line`/`column` where known (1-based). */
export type ConfigIssue = {
  readonly server: string | null;
  readonly field: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
};

/** A server name that is not configured. */
export class UnknownServerError extends HubError {
  constructor(readonly server: string) {
    super('unknown_server', `server "${server}" is not configured`);
  }
}

/** The owning upstream is not connected: says which state and which attempt. */
export class UpstreamUnavailableError extends HubError {
  constructor(
    readonly server: string,
    readonly state: string,
    readonly attempt: number,
  ) {
    super(
      'upstream_unavailable',
      state === 'needs_authorization'
        ? `server "${server}" needs authorization: run 'bnity mcp auth ${server}'`
        : attempt > 0
          ? `server "${server}" is ${state} (attempt ${attempt})`
          : `server "${server}" is ${state}`,
    );
  }
}

/** The caller is known but may not do this. */
export class ForbiddenError extends HubError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** Too many requests; `retryAfterSeconds` goes into `Retry-After`. */
export class RateLimitedError extends HubError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `rate limit exceeded, retry after ${retryAfterSeconds}s`,
  ) {
    super('rate_limited', message);
  }
}

/**
 * The upstream went away during a relayed request (`why`: "closed the connection", "went
 * reconnecting"), or its connection failed it ("failed", with the transport's error as `cause`).
 */
export class UpstreamLostError extends HubError {
  constructor(
    readonly server: string,
    why: string,
    options?: { cause: unknown },
  ) {
    super('upstream_failed', `server "${server}" ${why} during the call`, options);
  }
}

/**
 * A line a stdio upstream wrote to stdout that is not a message (issue 17): skipped, the
 * next one is read. Carries a short excerpt of the line, never the parser's own dump.
 */
export class UnreadableLineError extends HubError {
  constructor(
    readonly reason: 'not JSON' | 'not a JSON-RPC message',
    readonly excerpt: string,
    readonly length: number,
  ) {
    super('upstream_failed', `the server wrote a line that is ${reason} (${length} characters): ${excerpt}`);
  }
}

/** A `scope: "session"` connection that could not be opened for the agent session asking. */
export class SessionUpstreamError extends HubError {
  constructor(
    readonly server: string,
    options: { cause: unknown },
  ) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super('upstream_failed', `server "${server}" could not be opened for this session: ${why}`, options);
  }
}

/** The upstream did not answer a relayed request within its `requestTimeoutMs`. */
export class UpstreamTimeoutError extends HubError {
  constructor(
    readonly server: string,
    readonly timeoutMs: number,
    /** Where the limit is set (`mcpServers.x.timeouts.perTool.y`), named in the message. */
    readonly setBy?: string,
    /** The limit ran out though the upstream sent progress (`timeouts.maxTotalMs`). */
    readonly inAll = false,
  ) {
    const limit = inAll ? `${timeoutMs} ms in all, though it sent progress` : `${timeoutMs} ms`;
    super('upstream_timeout', `server "${server}" did not answer within ${limit}${setBy ? ` (${setBy})` : ''}`);
  }
}

/** A name or URI that the caller's view does not route (unknown, filtered, quarantined or down). */
export class NotInViewError extends HubError {
  constructor(
    readonly kind: 'tool' | 'prompt' | 'resource',
    readonly item: string,
  ) {
    super('bad_request', `${kind} "${quoted(item)}" is not available in this view`);
  }
}

/** A server-to-client request boternity cannot tie to one agent session (G6). */
export class UnattributedRequestError extends HubError {
  constructor(message: string) {
    super('unattributed', message);
  }
}

/** The agent session did not declare the capability an upstream's request needs. */
export class AgentUnsupportedError extends HubError {
  constructor(readonly capability: string) {
    super('unsupported', `the agent session does not support ${capability}`);
  }
}

/** A server's sampling budget (X6) cannot cover a request. */
export class SamplingBudgetSpentError extends HubError {
  constructor(message: string) {
    super('budget_spent', message);
  }
}

/** A server's sampling request refused by its `sampling` setting, or with no bot to answer it (G6). */
export class SamplingRefusedError extends HubError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** Longest name or URI echoed back in an error: longer ones are shortened, never echoed whole. */
const ECHO_MAX = 200;

/** `text` as it may appear in an error message (at most {@link ECHO_MAX} characters). */
export function quoted(text: string): string {
  return text.length <= ECHO_MAX ? text : `${text.slice(0, ECHO_MAX)}… (${text.length} characters)`;
}

/** The cap a request waits for: the setting that holds it and its value (ADR 022). */
export type InFlightCap = {
  readonly setting: string;
  readonly limit: number;
  readonly what: string;
  /** The cap on large requests (`limits.inFlight.largePerUpstream`). */
  readonly large?: boolean;
  /** Under that cap, but in the pause after a large request (ADR 022 §7): what is left of it. */
  readonly pauseMs?: number;
};

/** "is at its cap of 32 in flight", of large requests, or in the pause between large ones. */
const stateOf = (cap: InFlightCap, is: 'is' | 'stayed') =>
  cap.pauseMs !== undefined
    ? `${is === 'is' ? 'is pausing' : 'stayed paused'} between large requests (${seconds(cap.pauseMs)} s left) so that its other requests get their turn`
    : `${is} at its cap of ${cap.limit} ${cap.large ? 'large requests ' : ''}in flight`;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * A request refused at once: its token already has `limits.inFlight.queuePerToken` requests
 * waiting for a place under an in-flight cap (ADR 022). 429 over HTTP; -32000 on MCP.
 */
export class InFlightCapError extends RateLimitedError {
  constructor(
    readonly server: string,
    readonly queueLimit: number,
    readonly cap: InFlightCap,
  ) {
    super(
      1,
      `too many requests: ${cap.what} ${stateOf(cap, 'is')} (${cap.setting}) and ${cap.what === 'this token' ? 'it' : 'this token'} already has ${queueLimit} waiting (limits.inFlight.queuePerToken); retry once some have answered`,
    );
  }
}

/**
 * A request of an upstream (sampling, elicitation, roots) refused at once: its connection
 * already has `limit` waiting for an agent's answer (X8). -32000 to the upstream; never relayed.
 */
export class PeerRequestCapError extends RateLimitedError {
  constructor(
    readonly server: string,
    readonly limit: number,
  ) {
    super(
      1,
      `too many requests: server "${server}" already has ${limit} sampling, elicitation or roots requests waiting for an answer on this connection; this one was not relayed, retry once some have answered`,
    );
  }
}

/** A request that waited its whole `requestTimeoutMs` for a place under an in-flight cap; never sent (ADR 022). */
export class InFlightWaitTimeoutError extends HubError {
  constructor(
    readonly server: string,
    readonly timeoutMs: number,
    readonly cap: InFlightCap,
  ) {
    super(
      'upstream_timeout',
      `no place for the request to server "${server}" within ${timeoutMs} ms (requestTimeoutMs): ${cap.what} ${stateOf(cap, 'stayed')} (${cap.setting}); it was not sent`,
    );
  }
}
