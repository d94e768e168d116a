/**
 * Pure helpers of the connection machine: initial context, placeholder actors, and the
 * builders of the `ServerEvent`s it reports.
 * @module
 */
import { type EventObject, fromCallback, fromPromise } from 'xstate';
import type {
  ConnectInput,
  ConnectionContext,
  ConnectionInput,
  PingInput,
  WatchEvent,
  WatchInput,
} from './connection-types.js';
import { toErrorInfo } from './error-info.js';
import type { CatalogCounts, ErrorInfo, PingResult, ServerEvent, UpstreamHandle } from './types.js';

/** Counts before anything has been listed. */
export const ZERO_COUNTS: CatalogCounts = { toolCount: 0, resourceCount: 0, resourceTemplateCount: 0, promptCount: 0 };

/** Placeholder: the hub provides the real `connectUpstream` with `.provide({ actors })`. */
export const connectUpstream = fromPromise<UpstreamHandle, ConnectInput>(async () => {
  throw new Error('connectUpstream not provided');
});

/** Placeholder: the hub provides the real `watchUpstream` with `.provide({ actors })`. */
export const watchUpstream = fromCallback<EventObject, WatchInput>(() => {
  throw new Error('watchUpstream not provided');
});

/** Placeholder: the hub provides the real `pingUpstream` with `.provide({ actors })`. */
export const pingUpstream = fromPromise<PingResult, PingInput>(async () => {
  throw new Error('pingUpstream not provided');
});

/** Context at start. `attempt` holds `initialAttempt`; the `init` state lowers it before `reconnecting` adds 1. */
export function initialContext(input: ConnectionInput): ConnectionContext {
  return {
    serverId: input.serverId,
    spec: input.spec,
    parentRef: input.parentRef ?? null,
    random: input.random ?? (() => 0),
    attempt: Math.max(0, Math.floor(input.initialAttempt ?? 0)),
    lastError: input.initialError ?? null,
    nextDelayMs: null,
    handle: null,
    connectedAt: null,
    lastPingAt: null,
    pingLatencyMs: null,
    counts: ZERO_COUNTS,
    disabledReason: input.spec.enabled ? (input.startDisabled ?? null) : 'config',
  };
}

/** The handle a connected state needs; its absence is a bug in the machine. */
export function requireHandle(context: ConnectionContext): UpstreamHandle {
  if (context.handle === null) throw new Error(`connection ${context.serverId}: no upstream handle`);
  return context.handle;
}

/** `{ message: "<what> timed out after N ms", code: 'timeout' }`. */
export function timeoutError(what: string, ms: number): ErrorInfo {
  return { message: `${what} timed out after ${ms} ms`, code: 'timeout' };
}

/** Prefix a failure's message, keeping its code. */
export function prefixedError(prefix: string, error: unknown): ErrorInfo {
  const info = toErrorInfo(error);
  const message = `${prefix}: ${info.message}`;
  return info.code === undefined ? { message } : { message, code: info.code };
}

/** The `connecting` event. */
export function connectingEvent(context: ConnectionContext): ServerEvent {
  return { type: 'connecting', server: context.serverId, attempt: context.attempt };
}

/** The `connected` event, from the handle just assigned. */
export function connectedEvent(context: ConnectionContext): ServerEvent {
  const handle = requireHandle(context);
  return {
    type: 'connected',
    server: context.serverId,
    attempt: context.attempt,
    transport: handle.transport,
    pid: handle.pid,
    ...context.counts,
  };
}

/** The `reconnecting` event once the entry counted the attempt; null when attempts ran out (no delay). */
export function reconnectingEvent(context: ConnectionContext): ServerEvent | null {
  if (context.nextDelayMs === null) return null;
  return {
    type: 'reconnecting',
    server: context.serverId,
    attempt: context.attempt,
    delayMs: context.nextDelayMs,
    error: context.lastError,
  };
}

/** The `needs_authorization` event, from the failure that led there. */
export function needsAuthorizationEvent(context: ConnectionContext): ServerEvent {
  return {
    type: 'needs_authorization',
    server: context.serverId,
    authorizationServer: context.lastError?.authorizationServer ?? null,
    error: context.lastError,
  };
}

/** The `disabled` event. */
export function disabledEvent(context: ConnectionContext): ServerEvent {
  return { type: 'disabled', server: context.serverId, reason: context.disabledReason ?? 'config' };
}

/** The `catalog_changed` event for a catalog report from the watcher. */
export function catalogEvent(
  context: ConnectionContext,
  event: Extract<WatchEvent, { type: 'upstream.catalog' }>,
): ServerEvent {
  return { type: 'catalog_changed', server: context.serverId, changes: event.changes, ...event.counts };
}

/** The `health` event for a successful ping. */
export function healthEvent(context: ConnectionContext, result: PingResult): ServerEvent {
  return { type: 'health', server: context.serverId, latencyMs: result.latencyMs, at: result.at };
}
