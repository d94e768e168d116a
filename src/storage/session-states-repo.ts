/**
 * What clients changed about their 2025-11-25 sessions (issue 22, ADR 039 §2), in the shared
 * database: a session's logging level and its resource subscriptions, by the sealed id's
 * digest, one row an item (so two replicas changing one session at once lose nothing). A
 * replica that rebuilds a session replays them as the client's requests. Rows older than a
 * sealed id's lifetime are removed as new ones come (an id that old is refused anyway).
 * @module
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import type { Db } from './create-db.js';
import { sessionStateTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A change as the MCP endpoints see it: the client's request (`logging/setLevel`, `resources/(un)subscribe`). */
export type SessionChange = { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> };

/** The sessions' changes. */
export type SessionStates = {
  /** The requests that bring a rebuilt session to where its client left it. */
  read(digest: string): Promise<SessionChange[]>;
  /** Keep `change` (an answered request of the client's); other methods are ignored. */
  record(digest: string, change: { method: string; params?: unknown }): Promise<void>;
};

const SUBSCRIBED = 'subscribe:';

/** The sessions' changes over `db`; rows older than `maxAgeMs` are purged now and then. */
export function createSessionStates(
  db: Db,
  { maxAgeMs, now = Date.now }: { maxAgeMs: number; now?: () => number },
): SessionStates {
  let lastPurge = 0;
  const t = sessionStateTable;
  const put = (digest: string, item: string, value: string, at: number) =>
    withBusyRetry(() =>
      db
        .insert(t)
        .values({ digest, item, value, updatedAt: new Date(at) })
        .onConflictDoUpdate({ target: [t.digest, t.item], set: { value, updatedAt: new Date(at) } }),
    );
  return {
    async read(digest) {
      const rows = await db
        .select({ item: t.item, value: t.value })
        .from(t)
        .where(eq(t.digest, digest))
        .orderBy(asc(t.item));
      return rows.map(({ item, value }, i) =>
        item === 'level'
          ? { jsonrpc: '2.0', id: i, method: 'logging/setLevel', params: { level: value } }
          : { jsonrpc: '2.0', id: i, method: 'resources/subscribe', params: { uri: item.slice(SUBSCRIBED.length) } },
      );
    },
    async record(digest, { method, params }) {
      const at = now();
      const p = (params ?? {}) as { level?: unknown; uri?: unknown };
      if (method === 'logging/setLevel' && typeof p.level === 'string') await put(digest, 'level', p.level, at);
      else if (method === 'resources/subscribe' && typeof p.uri === 'string')
        await put(digest, `${SUBSCRIBED}${p.uri}`, '', at);
      else if (method === 'resources/unsubscribe' && typeof p.uri === 'string')
        await withBusyRetry(() =>
          db.delete(t).where(and(eq(t.digest, digest), eq(t.item, `${SUBSCRIBED}${p.uri as string}`))),
        );
      else return;
      if (at - lastPurge < 60_000) return;
      lastPurge = at;
      await withBusyRetry(() => db.delete(t).where(lt(t.updatedAt, new Date(at - maxAgeMs))));
    },
  };
}
