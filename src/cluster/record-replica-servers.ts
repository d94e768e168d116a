/**
 * Each server's state on this replica, in `replica_servers` (ADR 041), for the fleet view:
 * the replica's rows are cleared at start, then written on each change the supervisor
 * publishes (state, attempt, error, pid, tool count; not the health pings), in order, one
 * write at a time, and deleted when a server is removed. Nothing is polled.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Hub } from '../hub/create-hub.js';
import type { Db } from '../storage/create-db.js';
import { deleteReplicaServers, upsertReplicaServer } from '../storage/replica-repo.js';

/** The events that change what a row holds. */
const CHANGES = new Set<HubEvent['type']>([
  'connecting',
  'connected',
  'reconnecting',
  'needs_authorization',
  'disabled',
  'catalog_changed',
]);

/** Options of {@link recordReplicaServers}. */
export type RecordReplicaServersOptions = {
  db: Db;
  replica: string;
  hub: Pick<Hub, 'getServer' | 'listServers'>;
  bus: EventBus<HubEvent>;
  log: Logger;
};

/** Start recording; `flush()` stops and waits for the writes queued so far. */
export async function recordReplicaServers({ db, replica, hub, bus, log }: RecordReplicaServersOptions) {
  await deleteReplicaServers(db, replica);
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (server: string, write: () => Promise<void>) => {
    queue = queue
      .then(write)
      .catch((error: unknown) =>
        log.warn({ err: error, server }, 'could not record the server state for the fleet view'),
      );
  };
  const record = (server: string) => {
    let status: ReturnType<Hub['getServer']>;
    try {
      status = hub.getServer(server);
    } catch {
      return; // removed before we got here: its `removed` event deletes the row
    }
    const row = {
      replica,
      server,
      state: status.state,
      attempt: status.attempt,
      lastError: status.lastError,
      pid: status.pid,
      toolCount: status.toolCount,
      updatedAt: new Date(),
    };
    enqueue(server, () => upsertReplicaServer(db, row));
  };
  const unsubscribe = bus.subscribeTo(['removed', ...CHANGES], ({ event }) => {
    if (event.server === null) return;
    if (event.type === 'removed') enqueue(event.server, () => deleteReplicaServers(db, replica, event.server));
    else record(event.server);
  });
  // The servers as they are now: what the bus said before this started is not replayed here.
  for (const { name } of hub.listServers()) record(name);
  return {
    flush: async () => {
      unsubscribe();
      await queue;
    },
  };
}
