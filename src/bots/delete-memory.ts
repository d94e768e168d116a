/**
 * Forgetting a fact (SPEC B3).
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import { deleteMemoryRow } from '../storage/bot-memory-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';

/** Delete memory `id` of bot `slug`; throws BotItemNotFoundError when the bot has none such. */
export async function deleteMemory({ db }: { db: Db }, slug: string, id: string): Promise<void> {
  const bot = await requireBotRow(db, slug);
  if (!(await deleteMemoryRow(db, bot.id, id))) throw new BotItemNotFoundError('memory', slug, id);
}
