/**
 * The sealed session ids a `DELETE` ended (issue 22, ADR 039), kept in the shared database so
 * that a replica asked to rebuild one refuses it. Rows older than a sealed id's lifetime are
 * removed as new ones come (an id that old is refused by its age alone).
 * @module
 */
import { eq, lt } from 'drizzle-orm';
import type { Db } from './create-db.js';
import { closedSessionsTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** The closed list. */
export type ClosedSessions = {
  isClosed(digest: string): Promise<boolean>;
  close(digest: string): Promise<void>;
};

/** The closed list over `db`; rows older than `maxAgeMs` are purged now and then. */
export function createClosedSessions(
  db: Db,
  { maxAgeMs, now = Date.now }: { maxAgeMs: number; now?: () => number },
): ClosedSessions {
  let lastPurge = 0;
  const t = closedSessionsTable;
  return {
    async isClosed(digest) {
      const rows = await db.select({ digest: t.digest }).from(t).where(eq(t.digest, digest)).limit(1);
      return rows.length > 0;
    },
    async close(digest) {
      const at = now();
      await withBusyRetry(() =>
        db
          .insert(t)
          .values({ digest, closedAt: new Date(at) })
          .onConflictDoNothing(),
      );
      if (at - lastPurge < 60_000) return;
      lastPurge = at;
      await withBusyRetry(() => db.delete(t).where(lt(t.closedAt, new Date(at - maxAgeMs))));
    },
  };
}
