/**
 * The base of boternity's local errors and their stable codes (re-exported by `errors.ts`,
 * where the rest are).
 * @module
 */

/** Stable codes; scripts and the HTTP mapper switch on them, never on messages. */
export type HubErrorCode =
  | 'config_invalid'
  | 'config_unreadable'
  | 'config_file_invalid'
  | 'unknown_server'
  | 'not_found'
  | 'unknown_bot'
  | 'upstream_unavailable'
  | 'upstream_failed'
  | 'upstream_timeout'
  | 'needs_authorization'
  | 'unattributed'
  | 'unsupported'
  | 'budget_spent'
  | 'rate_limited'
  | 'unauthorized'
  | 'forbidden'
  | 'bad_request'
  | 'conflict'
  | 'payload_too_large'
  | 'home_in_use'
  | 'session_limit'
  | 'shutting_down'
  | 'request_ended'
  | 'store_unavailable'
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
