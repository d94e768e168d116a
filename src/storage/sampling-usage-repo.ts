/**
 * Sampling usage per server (SPEC X6), persisted so a budget survives restarts.
 * @module
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from './create-db.js';
import { samplingUsageTable } from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

/** Record `tokens` spent by `server` on forwarded sampling. */
export async function recordSamplingUsage(
  db: Db,
  server: string,
  tokens: number,
  bot: string | null = null,
): Promise<void> {
  await withBusyRetry(() => db.insert(samplingUsageTable).values({ serverName: server, botId: bot, tokens }));
}

/** Tokens spent so far, by server. */
export async function samplingTotals(db: Db): Promise<Map<string, number>> {
  const t = samplingUsageTable;
  const rows = await db
    .select({ server: t.serverName, tokens: sql<number>`sum(${t.tokens})` })
    .from(t)
    .groupBy(t.serverName);
  return new Map(rows.map((r) => [r.server, Number(r.tokens)]));
}

/** Forget a server's usage (a budget reset). */
export async function resetSamplingUsage(db: Db, server: string): Promise<void> {
  await withBusyRetry(() => db.delete(samplingUsageTable).where(eq(samplingUsageTable.serverName, server)));
}
