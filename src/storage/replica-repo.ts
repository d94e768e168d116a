/**
 * The replicas' rows (ADR 041): each replica's heartbeat and its servers' states, written by
 * the replica itself; read together by `GET /api/cluster`.
 * @module
 */
import { and, asc, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from './create-db.js';
import { replicaServersTable, replicasTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A replica's row as read. */
export type ReplicaRow = typeof replicasTable.$inferSelect;
/** A server's state on a replica, as read. */
export type ReplicaServerRow = typeof replicaServersTable.$inferSelect;

/** What a replica says of itself at each beat. */
export type ReplicaBeat = { id: string; version: string; address: string | null; at: number; leader: boolean };

/**
 * Write the replica's heartbeat; `started` (at its start) also resets `started_at`. A row
 * deleted meanwhile is written again, and `stopped_at` cleared: the replica runs.
 */
export async function beatReplica(db: Db, beat: ReplicaBeat, started = false): Promise<void> {
  const t = replicasTable;
  const at = new Date(beat.at);
  const fields = {
    lastHeartbeat: at,
    stoppedAt: null,
    version: beat.version,
    address: beat.address,
    leader: beat.leader ? 1 : 0,
  };
  await withBusyRetry(() =>
    db
      .insert(t)
      .values({ id: beat.id, startedAt: at, ...fields })
      .onConflictDoUpdate({ target: t.id, set: started ? { ...fields, startedAt: at } : fields }),
  );
}

/** A clean stop: the replica is gone (not stale) and holds no leadership. */
export async function markReplicaStopped(db: Db, id: string, at: number): Promise<void> {
  await withBusyRetry(() =>
    db
      .update(replicasTable)
      .set({ stoppedAt: new Date(at), leader: 0 })
      .where(eq(replicasTable.id, id)),
  );
}

/** `id` took the run-once jobs' lock: it is the leader, and no other row says it is (a dead one may). */
export async function claimLeader(db: Db, id: string): Promise<void> {
  const t = replicasTable;
  await withBusyRetry(() => db.update(t).set({ leader: sql`case when ${t.id} = ${id} then 1 else 0 end` }));
}

/** The row of replica `id`, or null. */
export async function readReplica(db: Db, id: string): Promise<ReplicaRow | null> {
  const [row] = await db.select().from(replicasTable).where(eq(replicasTable.id, id));
  return row ?? null;
}

/**
 * Forget replicas gone for `goneMs` (stopped that long ago, or silent that long: a renamed pod
 * never comes back under its old id) and their server rows; returns how many. The fleet view
 * listed them forever.
 */
export async function pruneGoneReplicas(db: Db, now: number, goneMs: number): Promise<number> {
  const t = replicasTable;
  const before = new Date(now - goneMs);
  const gone = await db
    .select({ id: t.id })
    .from(t)
    .where(or(lt(t.lastHeartbeat, before), and(isNotNull(t.stoppedAt), lt(t.stoppedAt, before))));
  for (const { id } of gone) {
    await withBusyRetry(() => db.delete(replicaServersTable).where(eq(replicaServersTable.replica, id)));
    await withBusyRetry(() => db.delete(t).where(eq(t.id, id)));
  }
  return gone.length;
}

/** Every replica row, by id. */
export function listReplicas(db: Db): Promise<ReplicaRow[]> {
  return db.select().from(replicasTable).orderBy(asc(replicasTable.id));
}

/** The server rows of every replica, by replica then server. */
export function listReplicaServers(db: Db): Promise<ReplicaServerRow[]> {
  const t = replicaServersTable;
  return db.select().from(t).orderBy(asc(t.replica), asc(t.server));
}

/** A server's state on a replica (`updatedAt` now when absent). */
export type ReplicaServerState = Omit<ReplicaServerRow, 'updatedAt'> & { updatedAt?: Date };

/** Write a server's state on a replica. */
export async function upsertReplicaServer(db: Db, row: ReplicaServerState): Promise<void> {
  const t = replicaServersTable;
  const { replica: _r, server: _s, ...fields } = row;
  const values = { ...row, updatedAt: row.updatedAt ?? new Date() };
  await withBusyRetry(() =>
    db
      .insert(t)
      .values(values)
      .onConflictDoUpdate({ target: [t.replica, t.server], set: { ...fields, updatedAt: values.updatedAt } }),
  );
}

/** Forget a server on a replica (removed from its config), or with no `server`, every one of the replica's. */
export async function deleteReplicaServers(db: Db, replica: string, server?: string): Promise<void> {
  const t = replicaServersTable;
  const where = and(eq(t.replica, replica), server === undefined ? undefined : eq(t.server, server));
  await withBusyRetry(() => db.delete(t).where(where));
}
