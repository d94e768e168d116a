/**
 * The public status of one server (SPEC section 7, `GET /api/servers`), read from the
 * connection actor's snapshot. Only the statechart owns state; this only reads it.
 * @module
 */
import type { ConnectionContext } from '../../machines/index.js';
import type { ServerConfig } from '../config/schema.js';
import type { FloodStatus } from '../upstream/notification-limits.js';

/** States a listed server can be in (`removed` servers are not listed). */
export type PublicState = 'connecting' | 'connected' | 'reconnecting' | 'needs_authorization' | 'disabled';

/** One row of `GET /api/servers`; the first ten fields are the contract of SPEC section 7. */
export type ServerStatus = {
  name: string;
  transport: 'stdio' | 'http' | 'sse' | 'auto';
  state: PublicState;
  attempt: number;
  lastError: string | null;
  nextRetryAt: string | null;
  toolCount: number;
  resourceCount: number;
  promptCount: number;
  pid: number | null;
  resourceTemplateCount: number;
  enabled: boolean;
  connectedAt: string | null;
  lastPingAt: string | null;
  pingLatencyMs: number | null;
  nextDelayMs: number | null;
  disabledReason: 'config' | 'manual' | 'exhausted' | null;
  /** True while the server sends notifications over its `notificationRate` (issue 17). */
  flooding: boolean;
  /** Notifications dropped over the rate since the server was configured (across reconnects). */
  droppedNotifications: number;
  /** In `needs_authorization`: the authorization server the upstream names (issue 23). */
  authorizationServer: string | null;
};

const NO_FLOOD: FloodStatus = { flooding: false, dropped: 0 };

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Top-level state name of a snapshot value such as `"connecting"` or `{ connected: "idle" }`. */
export function topState(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return Object.keys(value)[0] ?? 'unknown';
  return 'unknown';
}

/** Build the public status of a server from its actor's context and state. */
export function toServerStatus(
  name: string,
  config: ServerConfig,
  state: PublicState,
  context: ConnectionContext,
  retryAt: number | null,
  flood: FloodStatus = NO_FLOOD,
): ServerStatus {
  const connected = state === 'connected' ? context.handle : null;
  return {
    name,
    transport: connected?.transport ?? config.transport,
    state,
    attempt: context.attempt,
    lastError: context.lastError?.message ?? null,
    nextRetryAt: state === 'reconnecting' ? iso(retryAt) : null,
    toolCount: context.counts.toolCount,
    resourceCount: context.counts.resourceCount,
    promptCount: context.counts.promptCount,
    pid: connected?.pid ?? null,
    resourceTemplateCount: context.counts.resourceTemplateCount,
    enabled: config.enabled,
    connectedAt: state === 'connected' ? iso(context.connectedAt) : null,
    lastPingAt: iso(context.lastPingAt),
    pingLatencyMs: context.pingLatencyMs,
    nextDelayMs: state === 'reconnecting' ? context.nextDelayMs : null,
    disabledReason: state === 'disabled' ? context.disabledReason : null,
    flooding: flood.flooding,
    droppedNotifications: flood.dropped,
    authorizationServer: state === 'needs_authorization' ? (context.lastError?.authorizationServer ?? null) : null,
  };
}
