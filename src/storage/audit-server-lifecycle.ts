/**
 * Audit rows for an upstream's lifecycle (SPEC X7, issue 18 item 4), so that an audit (a
 * bot tab's included) says why a tool was unavailable: `server_connected`,
 * `server_disconnected` (a connected server lost, disabled or removed; `error` says why),
 * `server_reconnect_scheduled` (with the error and the delay) and `server_disabled` (with
 * its reason). Quarantines and approvals are written beside them (`audit-retention.ts`).
 *
 * Bounded: a flapping server must not flood the audit. Per server and kind, the first
 * event of a window is written at once (a user looking sees it now), and the others of that
 * window are counted and written as one row when it closes (`count`, `durationMs` the
 * window, the last one's error), as the notification tally of ADR 021 does. So a server
 * makes at most two rows per kind per window (`audit.undeliveredWindowMs`, 60 s by
 * default), whatever its backoff: at most eight a minute, flapping or not.
 * @module
 */
import { SERVER_STATE_EVENT_TYPES } from '../../machines/index.js';
import type { HubEvent } from '../events/hub-event.js';
import type { AuditEntry } from './audit-row.js';

/** The bus events that say something of a server's lifecycle. */
type ServerEvent = Extract<
  HubEvent,
  { type: 'connecting' | 'connected' | 'reconnecting' | 'needs_authorization' | 'disabled' | 'removed' }
>;

/** The kinds of lifecycle row. */
export const LIFECYCLE_EVENTS = [
  'server_connected',
  'server_disconnected',
  'server_reconnect_scheduled',
  'server_disabled',
] as const;

/** One kind of lifecycle row. */
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/** Options of {@link createLifecycleAudit}; `setTimer` returns a canceller, `now` is in ms. */
export type LifecycleAuditOptions = {
  audit: { record(entry: AuditEntry): void };
  /** How long a window lasts (read when one opens). */
  windowMs: () => number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => () => void;
};

/** What is kept of one kind of one server while its window is open. */
type Window = {
  readonly server: string;
  readonly eventType: LifecycleEvent;
  readonly openedAt: number;
  readonly cancel: () => void;
  /** Events after the first, not written yet, and the last of them. */
  held: number;
  last: AuditEntry | null;
};

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** The row an event makes, or null for events that make none. `wasConnected`: the server was connected until now. */
type LifecycleRow = { eventType: LifecycleEvent; entry: AuditEntry };

function rowOf(event: ServerEvent, wasConnected: boolean): LifecycleRow[] {
  const base = { direction: 'client' as const, serverName: event.server };
  const row = (eventType: LifecycleEvent, fields: Omit<AuditEntry, 'direction' | 'serverName' | 'eventType'>) => ({
    eventType,
    entry: { ...base, eventType, ...fields },
  });
  // A disconnection is told only of a server that was connected; an expected one (restarted,
  // removed) is a success, a lost or disabled one carries the error.
  const disconnected = (reason: string, success: boolean, error: string | null): LifecycleRow[] =>
    wasConnected ? [row('server_disconnected', { input: { reason }, success, error })] : [];
  switch (event.type) {
    case 'connected':
      return [
        row('server_connected', { input: { transport: event.transport, tools: event.toolCount }, success: true }),
      ];
    case 'reconnecting': {
      const error = event.error?.message ?? null;
      return [
        ...disconnected('lost', false, error),
        row('server_reconnect_scheduled', {
          input: { attempt: event.attempt, delayMs: event.delayMs },
          success: false,
          error,
        }),
      ];
    }
    case 'disabled': {
      const error = `disabled (${event.reason === 'exhausted' ? 'reconnect attempts exhausted' : event.reason})`;
      return [
        ...disconnected(event.reason, false, error),
        row('server_disabled', { input: { reason: event.reason }, success: false, error }),
      ];
    }
    case 'needs_authorization':
      // A refresh refused for good (issue 23): the connection went, waiting for an authorization.
      return disconnected('needs_authorization', false, event.error?.message ?? 'needs authorization');
    case 'connecting':
      // Straight from connected: restarted (its config changed, or `bnity mcp restart`).
      return disconnected('restarted', true, null);
    case 'removed':
      return disconnected('removed', true, null);
  }
}

/** The events {@link createLifecycleAudit}'s `observe` reads: a connection's changes of state. */
export const LIFECYCLE_EVENT_TYPES = SERVER_STATE_EVENT_TYPES;

const isServerEvent = (event: HubEvent): event is ServerEvent =>
  (SERVER_STATE_EVENT_TYPES as ReadonlySet<string>).has(event.type);

/** The lifecycle audit: `observe` each server event; `close()` writes what is held. */
export function createLifecycleAudit({ audit, windowMs, now = Date.now, setTimer = realTimer }: LifecycleAuditOptions) {
  const windows = new Map<string, Window>();
  const connected = new Set<string>();

  const flush = (key: string) => {
    const open = windows.get(key);
    if (!open) return;
    windows.delete(key);
    open.cancel();
    if (open.held === 0 || !open.last) return;
    const at = now();
    audit.record({ ...open.last, count: open.held, durationMs: at - open.openedAt, at: new Date(at) });
  };

  const write = (eventType: LifecycleEvent, entry: AuditEntry, at: number) => {
    const key = `${eventType}\u0000${entry.serverName}`;
    const open = windows.get(key);
    if (open) {
      open.held += 1;
      open.last = entry;
      return;
    }
    audit.record({ ...entry, at: new Date(at) });
    windows.set(key, {
      server: entry.serverName ?? '',
      eventType,
      openedAt: at,
      cancel: setTimer(() => flush(key), windowMs()),
      held: 0,
      last: null,
    });
  };

  return {
    /** Record what `event` (published at `at`, default now) says about its server's lifecycle; other events are ignored. */
    observe(event: HubEvent, at = now()): void {
      if (!isServerEvent(event)) return;
      const wasConnected = connected.has(event.server);
      if (event.type === 'connected') connected.add(event.server);
      else connected.delete(event.server);
      for (const { eventType, entry } of rowOf(event, wasConnected)) write(eventType, entry, at);
    },
    /** Write every count held (at shutdown). */
    close(): void {
      for (const key of [...windows.keys()]) flush(key);
    },
  };
}

/** A lifecycle audit. */
export type LifecycleAudit = ReturnType<typeof createLifecycleAudit>;
