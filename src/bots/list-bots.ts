/**
 * Listing the registry (SPEC B1, G8 `list_bots`).
 * @module
 */
import { listBotRows } from '../storage/bot-repo.js';
import type { Db } from '../storage/create-db.js';
import { type Bot, ListBotsInputSchema } from './bot-schemas.js';
import { toBot } from './get-bot.js';
import { parseInput } from './parse-input.js';

/** Bots ordered by slug, optionally of one `category`, paged by `limit` and `offset`. */
export async function listBots({ db }: { db: Db }, input: unknown = {}): Promise<Bot[]> {
  const { category, limit, offset } = parseInput(ListBotsInputSchema, input, 'bot list query');
  const rows = await listBotRows(db, {
    category,
    ...(limit !== undefined ? { limit } : {}),
    ...(offset !== undefined ? { offset } : {}),
  });
  return rows.map(toBot);
}
