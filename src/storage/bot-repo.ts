/**
 * The bot registry's rows (SPEC B1). Slugs are unique; a bot's memories, skills, workflows,
 * chat history and sampling usage are deleted with it.
 * @module
 */
import { asc, eq } from 'drizzle-orm';
import { botsTable } from './bot-schema.js';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A `bots` row. */
export type BotRow = typeof botsTable.$inferSelect;
/** The writable columns of a `bots` row. */
export type BotValues = Omit<typeof botsTable.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Insert a bot; null when its slug is taken. */
export async function insertBot(db: Db, values: BotValues & { slug: string; name: string }): Promise<BotRow | null> {
  const [row] = await withBusyRetry(() => db.insert(botsTable).values(values).onConflictDoNothing().returning());
  return row ?? null;
}

/** The bot with this slug, or null. */
export async function findBotBySlug(db: Db, slug: string): Promise<BotRow | null> {
  const [row] = await db.select().from(botsTable).where(eq(botsTable.slug, slug)).limit(1);
  return row ?? null;
}

/** Bots by slug, optionally of one category, paged. */
export async function listBotRows(
  db: Db,
  { category, limit = -1, offset = 0 }: { category?: string | undefined; limit?: number; offset?: number } = {},
): Promise<BotRow[]> {
  const query = db.select().from(botsTable);
  const filtered = category === undefined ? query : query.where(eq(botsTable.category, category));
  return filtered.orderBy(asc(botsTable.slug)).limit(limit).offset(offset);
}

/** Change a bot's columns; null when it no longer exists. */
export async function updateBotRow(
  db: Db,
  id: string,
  values: Partial<BotValues>,
  at = new Date(),
): Promise<BotRow | null> {
  const [row] = await withBusyRetry(() =>
    db
      .update(botsTable)
      .set({ ...values, updatedAt: at })
      .where(eq(botsTable.id, id))
      .returning(),
  );
  return row ?? null;
}

/** Delete a bot and everything it owns; false when there was none. */
export async function deleteBotBySlug(db: Db, slug: string): Promise<boolean> {
  const result = await withBusyRetry(() => db.delete(botsTable).where(eq(botsTable.slug, slug)));
  return rowsAffected(result) > 0;
}
