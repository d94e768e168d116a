/**
 * Mirrors every server's state into `mcp_connections` (SPEC S4, C5): on each server event
 * the hub's current status of that server is written, in order, one write at a time.
 * @module
 */
import type { Logger } from 'pino';
import { SERVER_EVENT_TYPES } from '../../machines/index.js';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import {
  deleteConnection,
  globalConnectionId,
  markAllDisconnected,
  upsertConnection,
} from '../storage/connection-repo.js';
import type { Db } from '../storage/create-db.js';
import type { Hub } from './create-hub.js';
import type { ServerStatus } from './server-status.js';

const date = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

const toRow = (s: ServerStatus, at: number, replica: string | undefined) => ({
  id: globalConnectionId(s.name, replica),
  serverName: s.name,
  // Until an `auto` server has connected, its transport is the one tried first.
  transportType: s.transport === 'auto' ? ('http' as const) : s.transport,
  // The table's CHECK predates issue 23: a server waiting for OAuth is kept as disconnected, its error saying why.
  status: s.state === 'needs_authorization' ? ('disconnected' as const) : s.state,
  attempt: s.attempt,
  nextRetryAt: date(s.nextRetryAt),
  connectedAt: date(s.connectedAt),
  disconnectedAt: s.state === 'connected' ? null : new Date(at),
  lastHealthPing: date(s.lastPingAt),
  pingLatencyMs: s.pingLatencyMs,
  errorMessage: s.lastError,
  pid: s.pid,
  toolCount: s.toolCount,
  resourceCount: s.resourceCount,
  resourceTemplateCount: s.resourceTemplateCount,
  promptCount: s.promptCount,
  updatedAt: new Date(at),
});

/** Start mirroring; `flush()` waits for the writes queued so far. */
export async function persistConnections({
  hub,
  bus,
  db,
  log,
  replica,
}: {
  hub: Hub;
  bus: EventBus<HubEvent>;
  db: Db;
  log: Logger;
  /** Set when replicas share the database: the rows are this replica's own (`global@<replica>/<server>`). */
  replica?: string | undefined;
}) {
  await markAllDisconnected(db, new Date(), replica);
  let queue: Promise<void> = Promise.resolve();
  // The connections' own events only: another that names a server (a tool call, one a
  // call) changes nothing a row holds, and would write one.
  const unsubscribe = bus.subscribeTo(SERVER_EVENT_TYPES, ({ event, at }) => {
    if (event.server === null) return;
    if (event.type === 'removed') {
      const id = globalConnectionId(event.server, replica);
      enqueue(() => deleteConnection(db, id), event.server);
      return;
    }
    let status: ServerStatus;
    try {
      status = hub.getServer(event.server);
    } catch {
      return; // removed before we got here
    }
    const row = toRow(status, at, replica);
    enqueue(() => upsertConnection(db, row), row.serverName);
  });
  function enqueue(write: () => Promise<void>, server: string) {
    queue = queue
      .then(write)
      .catch((error: unknown) => log.warn({ err: error, server }, 'could not persist connection state'));
  }
  return {
    flush: async () => {
      unsubscribe();
      await queue;
    },
  };
}
