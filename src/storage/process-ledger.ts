/**
 * The stdio children boternity has running (SPEC S6), kept in `upstream_processes` so that a
 * run starting after a crash can find and end the ones the crashed run left behind.
 *
 * Each row names the replica that spawned the child (ADR 041): on a database several replicas
 * share, a pid means something only on the host that spawned it, so a replica lists, reaps and
 * forgets only its own rows, and the rows written before replicas had ids (`''`: one process
 * had the database then). A ledger made without `replica` is the whole table's (tests, tools).
 * @module
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { ProcessLedger } from '../upstream/types.js';
import type { Db } from './create-db.js';
import { upstreamProcessesTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A recorded child: `startTime` tells it apart from a later process that reused the pid. */
export type LedgerEntry = { pid: number; startTime: string; serverId: string };

/** The ledger plus what the orphan reaper needs: read the entries, drop one it has dealt with. */
export type StoredProcessLedger = ProcessLedger & {
  /** Recorded children, oldest spawn first. */
  list(): Promise<LedgerEntry[]>;
  /** Drop the entry of `pid` (ended, or found to belong to another process now). */
  forget(pid: number): Promise<void>;
};

/** Options of {@link createProcessLedger}. */
export type ProcessLedgerOptions = {
  now?: () => number;
  /** The replica whose children these are; absent: every row, new ones recorded under `''`. */
  replica?: string;
};

/** A {@link ProcessLedger} stored in the database. */
export function createProcessLedger(
  db: Db,
  { now = Date.now, replica }: ProcessLedgerOptions = {},
): StoredProcessLedger {
  const t = upstreamProcessesTable;
  const mine: SQL | undefined = replica === undefined ? undefined : inArray(t.replica, [replica, '']);
  const forget = async (pid: number): Promise<void> => {
    await withBusyRetry(() => db.delete(t).where(and(mine, eq(t.pid, pid))));
  };
  return {
    async recordSpawn({ serverId, pid, startTime }) {
      const spawnedAt = new Date(now());
      // A pid already recorded belongs to a process that is gone: the new spawn replaces it.
      await withBusyRetry(() =>
        db
          .insert(t)
          .values({ replica: replica ?? '', pid, startTime, serverId, spawnedAt })
          .onConflictDoUpdate({ target: [t.replica, t.pid], set: { startTime, serverId, spawnedAt } }),
      );
    },
    recordExit: forget,
    async list() {
      return db
        .select({ pid: t.pid, startTime: t.startTime, serverId: t.serverId })
        .from(t)
        .where(mine)
        .orderBy(asc(t.spawnedAt), asc(t.pid));
    },
    forget,
  };
}
