/**
 * The servers page's state, kept live from `/api/events` alone: the snapshot that opens the
 * stream, then each event applied as the connection machine applies it to its own context
 * (S1, S5). Pure, so it is tested without a browser.
 * @module
 */
import type { LiveEvent, Quarantines, ServerStatus } from './api-types.js';

/** A server as the page shows it: its status and when the last event about it was published. */
export type LiveServer = ServerStatus & { readonly eventAt: string | null };

const blank = (name: string): LiveServer => ({
  name,
  transport: 'auto',
  state: 'connecting',
  attempt: 0,
  lastError: null,
  nextRetryAt: null,
  toolCount: 0,
  resourceCount: 0,
  promptCount: 0,
  pid: null,
  resourceTemplateCount: 0,
  enabled: true,
  connectedAt: null,
  lastPingAt: null,
  pingLatencyMs: null,
  nextDelayMs: null,
  disabledReason: null,
  authorizationServer: null,
  flooding: false,
  droppedNotifications: 0,
  eventAt: null,
});

/** The list the snapshot gives, sorted by name. */
export function fromSnapshot(servers: readonly ServerStatus[]): readonly LiveServer[] {
  return servers.map((server) => ({ ...server, eventAt: null })).sort((a, b) => a.name.localeCompare(b.name));
}

/** What an event changes in a server's row; null when the event removes it, undefined when it is not about rows. */
function change(server: LiveServer, event: LiveEvent): Partial<LiveServer> | null | undefined {
  const at = event.at;
  switch (event.type) {
    case 'connecting':
      return { state: 'connecting', attempt: event.attempt, nextRetryAt: null, nextDelayMs: null, pid: null };
    case 'connected':
      return {
        state: 'connected',
        attempt: event.attempt,
        transport: event.transport,
        pid: event.pid,
        toolCount: event.toolCount,
        resourceCount: event.resourceCount,
        resourceTemplateCount: event.resourceTemplateCount,
        promptCount: event.promptCount,
        connectedAt: at,
        lastError: null,
        nextRetryAt: null,
        nextDelayMs: null,
        disabledReason: null,
      };
    case 'reconnecting':
      return {
        state: 'reconnecting',
        attempt: event.attempt,
        nextDelayMs: event.delayMs,
        nextRetryAt: new Date(Date.parse(at) + event.delayMs).toISOString(),
        lastError: event.error?.message ?? server.lastError,
        pid: null,
        connectedAt: null,
      };
    case 'needs_authorization':
      return {
        state: 'needs_authorization',
        authorizationServer: event.authorizationServer,
        lastError: event.error?.message ?? server.lastError,
        pid: null,
        connectedAt: null,
        nextRetryAt: null,
        nextDelayMs: null,
      };
    case 'disabled':
      return {
        state: 'disabled',
        disabledReason: event.reason,
        enabled: event.reason !== 'config',
        pid: null,
        connectedAt: null,
        nextRetryAt: null,
        nextDelayMs: null,
      };
    case 'removed':
      return null;
    case 'catalog_changed':
      return {
        toolCount: event.toolCount,
        resourceCount: event.resourceCount,
        resourceTemplateCount: event.resourceTemplateCount,
        promptCount: event.promptCount,
      };
    case 'health':
      return { pingLatencyMs: event.latencyMs, lastPingAt: at };
    case 'server_flooding':
      return { flooding: event.flooding, droppedNotifications: event.droppedTotal };
    default:
      return undefined;
  }
}

/** The list after `event`: a new array when a row changed, the same one otherwise. */
export function applyEvent(servers: readonly LiveServer[], event: LiveEvent): readonly LiveServer[] {
  const name = event.server;
  if (name === null) return servers;
  const index = servers.findIndex((s) => s.name === name);
  const current = index === -1 ? blank(name) : (servers[index] as LiveServer);
  const patch = change(current, event);
  if (patch === undefined) return servers;
  if (patch === null) return index === -1 ? servers : servers.filter((s) => s.name !== name);
  const next = { ...current, ...patch, eventAt: event.at };
  if (index !== -1) return servers.map((s, i) => (i === index ? next : s));
  return [...servers, next].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The attempt a row shows: only while the server is still trying (connecting or reconnecting);
 * once connected the `connected` event still carries the attempt that succeeded, which is history.
 */
export function attemptShown(server: ServerStatus): number | null {
  return (server.state === 'connecting' || server.state === 'reconnecting') && server.attempt > 0
    ? server.attempt
    : null;
}

/** The ping a row shows: the last latency only while connected (a disabled server's is stale). */
export function pingShown(server: ServerStatus): number | null {
  return server.state === 'connected' && server.pingLatencyMs !== null ? Math.round(server.pingLatencyMs) : null;
}

/** Held (quarantined) tools per server, from `/api/quarantines`. */
export function countHeld(answer: Quarantines): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const { server } of answer.quarantines) counts.set(server, (counts.get(server) ?? 0) + 1);
  return counts;
}

/**
 * A notice about an action on one server ("Disconnecting memory…"), true only while the
 * server stays in one of the states it was set for (`null`: not listed): it goes when the
 * state it speaks of changes, instead of lingering after the row moved on.
 */
export type Notice = {
  readonly server: string;
  readonly text: string;
  readonly while: readonly (ServerStatus['state'] | null)[];
};

/** The notice's text while it is still true of `servers`, else null. */
export function noticeShown(notice: Notice | null, servers: readonly ServerStatus[]): string | null {
  if (!notice) return null;
  const state = servers.find((s) => s.name === notice.server)?.state ?? null;
  return notice.while.includes(state) ? notice.text : null;
}
