/**
 * A bot's skills (SPEC B3): prompt templates, unique by name within a bot.
 * @module
 */
import { and, asc, eq } from 'drizzle-orm';
import { botSkillsTable, botsTable, type StoredSkillArgument } from './bot-schema.js';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A `bot_skills` row. */
export type SkillRow = typeof botSkillsTable.$inferSelect;

const byName = (botId: string, name: string) => and(eq(botSkillsTable.botId, botId), eq(botSkillsTable.name, name));

/** Create or replace skill `name` of bot `botId`; `created` tells which. */
export async function upsertSkill(
  db: Db,
  botId: string,
  skill: { name: string; description: string; template: string; arguments: StoredSkillArgument[] },
  at = new Date(),
): Promise<{ row: SkillRow; created: boolean }> {
  const existed = (await findSkillRow(db, botId, skill.name)) !== null;
  const [row] = await withBusyRetry(() =>
    db
      .insert(botSkillsTable)
      .values({ botId, ...skill })
      .onConflictDoUpdate({ target: [botSkillsTable.botId, botSkillsTable.name], set: { ...skill, updatedAt: at } })
      .returning(),
  );
  if (!row) throw new Error('skill upsert returned no row');
  return { row, created: !existed };
}

/** Skill `name` of bot `botId`, or null. */
export async function findSkillRow(db: Db, botId: string, name: string): Promise<SkillRow | null> {
  const [row] = await db.select().from(botSkillsTable).where(byName(botId, name)).limit(1);
  return row ?? null;
}

/** Every skill of bot `botId`, by name. */
export async function listSkillRows(db: Db, botId: string): Promise<SkillRow[]> {
  return db.select().from(botSkillsTable).where(eq(botSkillsTable.botId, botId)).orderBy(asc(botSkillsTable.name));
}

/** Every skill of every bot with its bot's slug, by slug then name (the prompts of `/mcp`). */
export async function listAllSkillRows(db: Db): Promise<{ slug: string; skill: SkillRow }[]> {
  return db
    .select({ slug: botsTable.slug, skill: botSkillsTable })
    .from(botSkillsTable)
    .innerJoin(botsTable, eq(botsTable.id, botSkillsTable.botId))
    .orderBy(asc(botsTable.slug), asc(botSkillsTable.name));
}

/** Delete skill `name` of bot `botId`; false when there was none. */
export async function deleteSkillRow(db: Db, botId: string, name: string): Promise<boolean> {
  const result = await withBusyRetry(() => db.delete(botSkillsTable).where(byName(botId, name)));
  return rowsAffected(result) > 0;
}
