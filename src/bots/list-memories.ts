/**
 * Reading a bot's memories (SPEC B3, G8 `get_memories__{slug}`).
 * @module
 */
import { listMemoryRows } from '../storage/bot-memory-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { ListMemoriesInputSchema, type Memory, toMemory } from './memory-schemas.js';
import { parseInput } from './parse-input.js';

/** Bot `slug`'s memories, newest first; `{ category?, limit? = 50 }`. */
export async function listMemories({ db }: { db: Db }, slug: string, input: unknown = {}): Promise<Memory[]> {
  const bot = await requireBotRow(db, slug);
  const query = parseInput(ListMemoriesInputSchema, input, 'memory query');
  return (await listMemoryRows(db, bot.id, query)).map(toMemory);
}
