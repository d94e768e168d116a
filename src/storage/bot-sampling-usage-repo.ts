/**
 * Tokens a bot's provider spent on sampling (SPEC G6, X6), persisted so its budget survives
 * restarts.
 * @module
 */
import { eq, sql } from 'drizzle-orm';
import { botSamplingUsageTable } from './bot-schema.js';
import type { Db } from './create-db.js';
import { withBusyRetry } from './with-busy-retry.js';

/** One answered sampling request's cost. */
export type BotSamplingCharge = {
  botId: string;
  serverName: string | null;
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
};

/** Record what one answer cost. */
export async function recordBotSamplingUsage(db: Db, charge: BotSamplingCharge): Promise<void> {
  const tokens = charge.promptTokens + charge.completionTokens;
  await withBusyRetry(() => db.insert(botSamplingUsageTable).values({ ...charge, tokens }));
}

/** Tokens bot `botId` has spent on sampling so far. */
export async function botSamplingUsed(db: Db, botId: string): Promise<number> {
  const t = botSamplingUsageTable;
  const [row] = await db
    .select({ tokens: sql<number | null>`sum(${t.tokens})` })
    .from(t)
    .where(eq(t.botId, botId));
  return Number(row?.tokens ?? 0);
}

/** Forget bot `botId`'s usage (a budget reset). */
export async function resetBotSamplingUsage(db: Db, botId: string): Promise<void> {
  await withBusyRetry(() => db.delete(botSamplingUsageTable).where(eq(botSamplingUsageTable.botId, botId)));
}

/** Tokens every bot has spent on sampling, by bot id (bots that spent nothing are absent). */
export async function botSamplingTotals(db: Db): Promise<Map<string, number>> {
  const t = botSamplingUsageTable;
  const rows = await db
    .select({ botId: t.botId, tokens: sql<number | null>`sum(${t.tokens})` })
    .from(t)
    .groupBy(t.botId);
  return new Map(rows.map((r) => [r.botId, Number(r.tokens ?? 0)]));
}
