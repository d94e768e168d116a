/**
 * The shapes of a bot's memories (SPEC B3).
 * @module
 */
import { z } from 'zod';
import type { MemoryRow } from '../storage/bot-memory-repo.js';

const Category = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, 'categories are 1 to 64 letters, digits, space, _ . -');

/** `add_memory__{slug}` and the API's `POST …/memories`. */
export const AddMemoryInputSchema = z
  .object({
    content: z.string().trim().min(1).max(4_000),
    category: Category.default('general'),
  })
  .strict();

/** The API's `PATCH …/memories/{id}`: a new content, a new category, or both (at least one). */
export const UpdateMemoryInputSchema = z
  .object({
    content: z.string().trim().min(1).max(4_000).optional(),
    category: Category.optional(),
  })
  .strict()
  .refine((change) => change.content !== undefined || change.category !== undefined, {
    message: 'give content, category or both',
  });

/** `get_memories__{slug}`: newest first, optionally of one category, at most `limit`. */
export const ListMemoriesInputSchema = z
  .object({
    category: Category.optional(),
    limit: z.number().int().min(1).max(500).default(50),
  })
  .strict();

/** A memory as returned. */
export type Memory = { id: string; category: string; content: string; createdAt: string };

/** The API shape of a memory row. */
export function toMemory(row: MemoryRow): Memory {
  return { id: row.id, category: row.category, content: row.content, createdAt: row.createdAt.toISOString() };
}
