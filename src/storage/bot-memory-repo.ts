/**
 * A bot's memories (SPEC B3): facts with a category, newest first.
 * @module
 */
import { and, desc, eq } from 'drizzle-orm';
import { botMemoriesTable } from './bot-schema.js';
import type { Db } from './create-db.js';
import { insertionOrder, rowsAffected } from './db-dialect.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A `bot_memories` row. */
export type MemoryRow = typeof botMemoriesTable.$inferSelect;

/** Store one memory of bot `botId`. */
export async function insertMemory(
  db: Db,
  botId: string,
  { category, content }: { category: string; content: string },
): Promise<MemoryRow> {
  const [row] = await withBusyRetry(() => db.insert(botMemoriesTable).values({ botId, category, content }).returning());
  if (!row) throw new Error('memory insert returned no row');
  return row;
}

/** Newest first (ties in the same millisecond: last inserted first), optionally of one category. */
export async function listMemoryRows(
  db: Db,
  botId: string,
  { category, limit }: { category?: string | undefined; limit: number },
): Promise<MemoryRow[]> {
  const t = botMemoriesTable;
  const where = category === undefined ? eq(t.botId, botId) : and(eq(t.botId, botId), eq(t.category, category));
  return db
    .select()
    .from(t)
    .where(where)
    .orderBy(desc(t.createdAt), desc(insertionOrder(db)))
    .limit(limit);
}

/** Delete memory `id` of bot `botId`; false when there is none. */
export async function deleteMemoryRow(db: Db, botId: string, id: string): Promise<boolean> {
  const t = botMemoriesTable;
  const result = await withBusyRetry(() => db.delete(t).where(and(eq(t.botId, botId), eq(t.id, id))));
  return rowsAffected(result) > 0;
}

/** Change memory `id` of bot `botId` (the fields given); null when there is none. */
export async function updateMemoryRow(
  db: Db,
  botId: string,
  id: string,
  changes: { category?: string | undefined; content?: string | undefined },
): Promise<MemoryRow | null> {
  const t = botMemoriesTable;
  const set = {
    ...(changes.category === undefined ? {} : { category: changes.category }),
    ...(changes.content === undefined ? {} : { content: changes.content }),
  };
  const [row] = await withBusyRetry(() =>
    db
      .update(t)
      .set(set)
      .where(and(eq(t.botId, botId), eq(t.id, id)))
      .returning(),
  );
  return row ?? null;
}
