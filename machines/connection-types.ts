/**
 * Types of the connection machine: its input, context, events and injected actors' inputs.
 * @module
 */
import type { AnyActorRef } from 'xstate';
import type { CatalogCounts, CatalogDiff, ErrorInfo, ServerEvent, ServerSpec, UpstreamHandle } from './types.js';

/** Why a connection is `disabled`: switched off in config, by an operator, or out of attempts. */
export type DisabledReason = 'config' | 'manual' | 'exhausted';

/** Input of one connection actor. */
export type ConnectionInput = {
  readonly serverId: string;
  readonly spec: ServerSpec;
  /** Receives a `ConnectionReport` for every event; absent when the actor runs standalone. */
  readonly parentRef?: AnyActorRef | undefined;
  /** Source of jitter in [0, 1); without one the delay is not jittered. */
  readonly random?: (() => number) | undefined;
  /** Above 0: start in `reconnecting` showing this attempt, so a respawn waits a backoff first. */
  readonly initialAttempt?: number | undefined;
  /** The failure that caused a respawn, shown as `lastError` and in the first `reconnecting` event. */
  readonly initialError?: ErrorInfo | null | undefined;
  /** Start in `disabled` with this reason (the supervisor's last resort for a child that keeps crashing). */
  readonly startDisabled?: DisabledReason | undefined;
};

/** Context of one connection actor (SPEC S1). */
export type ConnectionContext = {
  readonly serverId: string;
  readonly spec: ServerSpec;
  readonly parentRef: AnyActorRef | null;
  readonly random: () => number;
  readonly attempt: number;
  readonly lastError: ErrorInfo | null;
  readonly nextDelayMs: number | null;
  readonly handle: UpstreamHandle | null;
  readonly connectedAt: number | null;
  readonly lastPingAt: number | null;
  readonly pingLatencyMs: number | null;
  readonly counts: CatalogCounts;
  readonly disabledReason: DisabledReason | null;
};

/** What `watchUpstream` sends back: the session ended, or the catalog changed. */
export type WatchEvent =
  | { readonly type: 'upstream.closed'; readonly error: ErrorInfo | null }
  | { readonly type: 'upstream.catalog'; readonly counts: CatalogCounts; readonly changes: readonly CatalogDiff[] }
  /** A call met silence: check the connection now, with a short ping (X8). */
  | { readonly type: 'upstream.check' };

/** Events a connection actor accepts: commands from the supervisor and reports from `watchUpstream`. */
export type ConnectionEvent =
  | { readonly type: 'server.update'; readonly spec: ServerSpec }
  | { readonly type: 'server.remove' }
  | { readonly type: 'server.connect' }
  | { readonly type: 'server.disconnect' }
  | WatchEvent;

/** What a connection actor sends its parent for each `ServerEvent`. */
export type ConnectionReport = { readonly type: 'connection.event'; readonly event: ServerEvent };

/** Input of the injected `connectUpstream` promise actor. */
export type ConnectInput = { readonly serverId: string; readonly spec: ServerSpec; readonly attempt: number };

/** Input of the injected `watchUpstream` callback actor. */
export type WatchInput = { readonly serverId: string; readonly handle: UpstreamHandle };

/** Input of the injected `pingUpstream` promise actor. */
export type PingInput = {
  readonly serverId: string;
  readonly handle: UpstreamHandle;
  readonly timeoutMs: number;
  /** The periodic health ping, or the short liveness check a silent call asked for. */
  readonly kind?: 'health' | 'liveness';
};
