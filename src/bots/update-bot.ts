/**
 * Changing a bot (SPEC B1, section 7 `PATCH /api/bots/{slug}`). The slug never changes: it
 * names the bot's view in the config file and its tokens.
 * @module
 */
import { UnknownBotError } from '../errors.js';
import { type BotValues, updateBotRow } from '../storage/bot-repo.js';
import type { BotDeps } from './bot-deps.js';
import { type Bot, UpdateBotInputSchema } from './bot-schemas.js';
import { requireBotRow, toBot } from './get-bot.js';
import { parseInput } from './parse-input.js';
import { providerColumns } from './provider-columns.js';

/** Apply `patch` (absent: unchanged, null: cleared), publish `bot_updated`; throws UnknownBotError or BotInputError. */
export async function updateBot(
  { db, changes, events }: Pick<BotDeps, 'db' | 'changes' | 'events'>,
  slug: string,
  patch: unknown,
): Promise<Bot> {
  const row = await requireBotRow(db, slug);
  const input = parseInput(UpdateBotInputSchema, patch, 'bot update');
  const values: Partial<BotValues> = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.category !== undefined ? { category: input.category } : {}),
    ...(input.systemPrompt !== undefined ? { systemPrompt: input.systemPrompt } : {}),
    ...(input.provider !== undefined ? providerColumns(input.provider) : {}),
    ...(input.samplingBudgetTokens !== undefined ? { samplingBudgetTokens: input.samplingBudgetTokens } : {}),
  };
  const updated = await updateBotRow(db, row.id, values);
  if (!updated) throw new UnknownBotError(slug);
  // The name and description are in the bot tools' descriptions.
  changes.publish({ kind: 'updated', slug });
  const fields = Object.keys(input).filter((key) => input[key as keyof typeof input] !== undefined);
  events.publish({ type: 'bot_updated', server: null, bot: slug, name: updated.name, fields });
  return toBot(updated);
}
