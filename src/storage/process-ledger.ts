/**
 * The stdio children boternity has running (SPEC S6), kept in `upstream_processes` so that a
 * run starting after a crash can find and end the ones the crashed run left behind.
 * @module
 */
import { asc, eq } from 'drizzle-orm';
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
export type ProcessLedgerOptions = { now?: () => number };

/** A {@link ProcessLedger} stored in the database. */
export function createProcessLedger(db: Db, { now = Date.now }: ProcessLedgerOptions = {}): StoredProcessLedger {
  const t = upstreamProcessesTable;
  const forget = async (pid: number): Promise<void> => {
    await withBusyRetry(() => db.delete(t).where(eq(t.pid, pid)));
  };
  return {
    async recordSpawn({ serverId, pid, startTime }) {
      const spawnedAt = new Date(now());
      // A pid already recorded belongs to a process that is gone: the new spawn replaces it.
      await withBusyRetry(() =>
        db
          .insert(t)
          .values({ pid, startTime, serverId, spawnedAt })
          .onConflictDoUpdate({ target: t.pid, set: { startTime, serverId, spawnedAt } }),
      );
    },
    recordExit: forget,
    async list() {
      return db
        .select({ pid: t.pid, startTime: t.startTime, serverId: t.serverId })
        .from(t)
        .orderBy(asc(t.spawnedAt), asc(t.pid));
    },
    forget,
  };
}
