/**
 * The fleet view (`GET /api/cluster`, ADR 041): every replica the database knows with its
 * last heartbeat, version, address, whether it is alive, stale (no heartbeat for
 * `staleAfterMs`: killed, hung, or cut off) or stopped (a clean stop), which one leads the
 * run-once jobs, and each server's state on each replica as that replica last wrote it.
 * @module
 */
import type { Db } from '../storage/create-db.js';
import { listReplicaServers, listReplicas } from '../storage/replica-repo.js';

/** A server as one replica last reported it. */
export type ClusterServer = {
  name: string;
  state: string;
  attempt: number;
  lastError: string | null;
  pid: number | null;
  toolCount: number;
  updatedAt: string;
};

/** One replica in the fleet view. */
export type ClusterReplica = {
  id: string;
  status: 'alive' | 'stale' | 'stopped';
  /** The replica that answered. */
  self: boolean;
  leader: boolean;
  version: string;
  address: string | null;
  startedAt: string;
  lastHeartbeat: string;
  /** How long ago its last heartbeat was written, in ms. */
  heartbeatAgeMs: number;
  stoppedAt: string | null;
  servers: ClusterServer[];
};

/** The fleet view. */
export type ClusterView = {
  /** The replica that answered. */
  replica: string;
  /** `postgres` (a fleet) or `sqlite` (one replica). */
  database: 'postgres' | 'sqlite';
  /** The replica leading the run-once jobs: an alive one whose row says so, else null. */
  leader: string | null;
  replicas: ClusterReplica[];
};

/** Options of {@link readCluster}. */
export type ReadClusterOptions = {
  db: Db;
  self: string;
  database: ClusterView['database'];
  staleAfterMs: number;
  now?: () => number;
};

/** Read the fleet view from the database. */
export async function readCluster({
  db,
  self,
  database,
  staleAfterMs,
  now = Date.now,
}: ReadClusterOptions): Promise<ClusterView> {
  const [rows, servers] = await Promise.all([listReplicas(db), listReplicaServers(db)]);
  const at = now();
  const replicas = rows.map((row): ClusterReplica => {
    const age = Math.max(0, at - row.lastHeartbeat.getTime());
    const status = row.stoppedAt ? 'stopped' : age > staleAfterMs ? 'stale' : 'alive';
    return {
      id: row.id,
      status,
      self: row.id === self,
      // A dead leader's row still says so until another takes the lock: only an alive one leads.
      leader: row.leader === 1 && status === 'alive',
      version: row.version,
      address: row.address,
      startedAt: row.startedAt.toISOString(),
      lastHeartbeat: row.lastHeartbeat.toISOString(),
      heartbeatAgeMs: age,
      stoppedAt: row.stoppedAt?.toISOString() ?? null,
      servers: servers
        .filter((s) => s.replica === row.id)
        .map((s) => ({
          name: s.server,
          state: s.state,
          attempt: s.attempt,
          lastError: s.lastError,
          pid: s.pid,
          toolCount: s.toolCount,
          updatedAt: s.updatedAt.toISOString(),
        })),
    };
  });
  return { replica: self, database, leader: replicas.find((r) => r.leader)?.id ?? null, replicas };
}
