/**
 * Creating a bot (SPEC B1, section 7 `POST /api/bots`, G8 `create_bot`).
 * @module
 */
import { BotExistsError } from '../errors.js';
import { insertBot } from '../storage/bot-repo.js';
import type { BotDeps } from './bot-deps.js';
import { type Bot, CreateBotInputSchema } from './bot-schemas.js';
import { toBot } from './get-bot.js';
import { parseInput } from './parse-input.js';
import { providerColumns } from './provider-columns.js';

/** Validate and insert a bot, then publish `created` and `bot_created`. Throws BotInputError or BotExistsError. */
export async function createBot(
  { db, changes, events }: Pick<BotDeps, 'db' | 'changes' | 'events'>,
  input: unknown,
): Promise<Bot> {
  const bot = parseInput(CreateBotInputSchema, input, 'bot');
  const row = await insertBot(db, {
    slug: bot.slug,
    name: bot.name,
    description: bot.description ?? '',
    category: bot.category ?? null,
    systemPrompt: bot.systemPrompt ?? null,
    ...providerColumns(bot.provider ?? null),
    samplingBudgetTokens: bot.samplingBudgetTokens ?? null,
  });
  if (!row) throw new BotExistsError(bot.slug);
  changes.publish({ kind: 'created', slug: row.slug });
  events.publish({ type: 'bot_created', server: null, bot: row.slug, name: row.name });
  return toBot(row);
}
