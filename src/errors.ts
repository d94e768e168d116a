/**
 * Local errors of boternity. Wire errors (MCP `McpError`, HTTP statuses) are mapped from
 * these at the edges: `http/http-errors.ts` and the gateway.
 * @module
 */

/** Stable codes; scripts and the HTTP mapper switch on them, never on messages. */
export type HubErrorCode =
  | 'config_invalid'
  | 'config_unreadable'
  | 'unknown_server'
  | 'not_found'
  | 'unknown_bot'
  | 'upstream_unavailable'
  | 'upstream_failed'
  | 'rate_limited'
  | 'unauthorized'
  | 'forbidden'
  | 'bad_request'
  | 'conflict'
  | 'payload_too_large'
  | 'home_in_use'
  | 'internal';

/** Base class of every error boternity throws on purpose. */
export class HubError extends Error {
  constructor(
    readonly code: HubErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A config file that cannot be read or does not validate. `issues` name path and field. */
export class ConfigError extends HubError {
  constructor(
    message: string,
    readonly file: string | null,
    readonly issues: readonly ConfigIssue[] = [],
    options?: { cause?: unknown; code?: 'config_invalid' | 'config_unreadable' },
  ) {
    super(options?.code ?? 'config_invalid', message, options);
  }
}

/** One problem in a config file: `server` is null for top-level fields. */
export type ConfigIssue = { readonly server: string | null; readonly field: string; readonly message: string };

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
      attempt > 0 ? `server "${server}" is ${state} (attempt ${attempt})` : `server "${server}" is ${state}`,
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
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `rate limit exceeded, retry after ${retryAfterSeconds}s`);
  }
}
