/**
 * A bot that lives in one place only (SPEC B1, B2) is reported in the log, once per config
 * in force, never dropped: a registry bot without a view in the config file sees the default
 * servers; a view without a registry bot has no profile, provider, memories or chat.
 * @module
 */
import type { Logger } from 'pino';
import type { BotConfig } from '../config/schema.js';
import type { Db } from '../storage/create-db.js';
import { listBots } from './list-bots.js';
import { reconcileBots } from './reconcile-bots.js';

/** Log a warning for each bot found in one place only; resolves with their slugs by place. */
export async function reportBotSources(
  { db, log }: { db: Db; log: Logger },
  configured: Readonly<Record<string, BotConfig>>,
): Promise<{ database: string[]; config: string[] }> {
  const joined = reconcileBots(await listBots({ db }), configured);
  const only = (source: 'database' | 'config') => joined.filter((b) => b.source === source).map((b) => b.slug);
  const found = { database: only('database'), config: only('config') };
  if (found.database.length > 0)
    log.warn({ bots: found.database }, 'bots in the registry with no view in the config file see the default servers');
  if (found.config.length > 0)
    log.warn(
      { bots: found.config },
      'bots in the config file are not in the registry: no profile, provider, memories or chat (bnity bot create)',
    );
  return found;
}
