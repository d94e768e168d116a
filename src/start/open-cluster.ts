/**
 * This replica's place in the fleet (ADR 041), built once the database is open: the leader
 * lock of the run-once jobs (PostgreSQL; on SQLite the one process leads), the heartbeat, and
 * each server's state written for the fleet view. `stop()` undoes it in order: no more server
 * rows (its own deleted), the lock let go, the replica marked stopped.
 * @module
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import {
  holdLeadership,
  type Leadership,
  recordReplicaServers,
  replicaVersion,
  soleLeadership,
  startHeartbeat,
} from '../cluster/index.js';
import type { AppConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Hub } from '../hub/create-hub.js';
import type { OpenDb } from '../storage/create-db.js';
import { claimLeader, deleteReplicaServers, pruneGoneReplicas } from '../storage/replica-repo.js';

/** How long a stopped or silent replica stays in the fleet view. */
export const REPLICA_GONE_MS = 7 * 24 * 60 * 60 * 1000;

/** The replica's fleet parts. */
export type Cluster = { replica: string; leadership: Leadership; stop(): Promise<void> };

/** Options of {@link openCluster}. */
export type OpenClusterOptions = {
  store: OpenDb;
  replica: string;
  hub: Hub;
  bus: EventBus<HubEvent>;
  log: Logger;
  config: () => AppConfig;
  address: string | null;
};

/** Join the fleet: lock, heartbeat, server rows. */
export async function openCluster({
  store,
  replica,
  hub,
  bus,
  log,
  config,
  address,
}: OpenClusterOptions): Promise<Cluster> {
  const db = store.db;
  const clusterLog = log.child({ mod: 'cluster', replica });
  const everyMs = () => config().replicas.heartbeatMs;
  const leadership = store.openSession
    ? await holdLeadership({
        openSession: store.openSession,
        retryMs: () => config().replicas.leaderRetryMs,
        log: clusterLog,
      })
    : soleLeadership();
  const heartbeat = await startHeartbeat({
    db,
    id: replica,
    version: replicaVersion(),
    address,
    everyMs,
    leader: leadership.isLeader,
    log: clusterLog,
  });
  // Replicas gone for a week leave the fleet view (a renamed pod never comes back under its id).
  await pruneGoneReplicas(db, Date.now(), REPLICA_GONE_MS).catch((error: unknown) =>
    clusterLog.warn({ err: error }, 'replicas gone for a week not pruned from the fleet view'),
  );
  const claim = () =>
    claimLeader(db, replica).catch((error: unknown) => clusterLog.warn({ err: error }, 'leadership not recorded'));
  if (leadership.isLeader()) await claim();
  // The fleet view learns of a new leader at once, not at the next beat.
  const unfollow = leadership.onChange((leader) => void (leader ? claim() : heartbeat.beat()));
  const servers = await recordReplicaServers({ db, replica, hub, bus, log: clusterLog });
  return {
    replica,
    leadership,
    async stop() {
      unfollow();
      await servers.flush();
      // Its children are ended by the stop: a stopped replica runs no server.
      await deleteReplicaServers(db, replica).catch((error: unknown) =>
        clusterLog.warn({ err: error }, 'the servers of this replica not cleared from the fleet view'),
      );
      await leadership.stop();
      await heartbeat.stop();
    },
  };
}

/**
 * The base URL other replicas and operators may reach this one at: its listening URL, the
 * host name in place of a wildcard address; null without HTTP (`bnity mcp serve --stdio`).
 */
export function replicaAddress(http: { url: string } | null): string | null {
  if (!http) return null;
  return http.url.replace('//0.0.0.0:', `//${hostname()}:`).replace('//[::]:', `//${hostname()}:`);
}
