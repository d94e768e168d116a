/**
 * Remembering a fact (SPEC B3, G8 `add_memory__{slug}`).
 * @module
 */
import { insertMemory } from '../storage/bot-memory-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { AddMemoryInputSchema, type Memory, toMemory } from './memory-schemas.js';
import { parseInput } from './parse-input.js';

/** Store `{ content, category? }` for bot `slug` (category defaults to `general`). */
export async function addMemory({ db }: { db: Db }, slug: string, input: unknown): Promise<Memory> {
  const bot = await requireBotRow(db, slug);
  const memory = parseInput(AddMemoryInputSchema, input, 'memory');
  return toMemory(await insertMemory(db, bot.id, memory));
}
