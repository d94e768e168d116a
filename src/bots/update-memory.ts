/**
 * Correcting a fact (SPEC B3, issue 19): a memory's content or category changed in place,
 * keeping its id and when it was first remembered.
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import { updateMemoryRow } from '../storage/bot-memory-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { type Memory, toMemory, UpdateMemoryInputSchema } from './memory-schemas.js';
import { parseInput } from './parse-input.js';

/** Change memory `id` of bot `slug` with `{ content?, category? }`; throws BotItemNotFoundError when there is none. */
export async function updateMemory({ db }: { db: Db }, slug: string, id: string, input: unknown): Promise<Memory> {
  const bot = await requireBotRow(db, slug);
  const change = parseInput(UpdateMemoryInputSchema, input, 'memory change');
  const row = await updateMemoryRow(db, bot.id, id, change);
  if (!row) throw new BotItemNotFoundError('memory', slug, id);
  return toMemory(row);
}
