/**
 * Reading one bot of the registry (SPEC B1).
 * @module
 */
import { UnknownBotError } from '../errors.js';
import { type BotRow, findBotBySlug } from '../storage/bot-repo.js';
import type { Db } from '../storage/create-db.js';
import type { Bot } from './bot-schemas.js';
import { BotSlugSchema } from './bot-schemas.js';
import { parseInput } from './parse-input.js';

/** The API shape of a `bots` row. */
export function toBot(row: BotRow): Bot {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    systemPrompt: row.systemPrompt,
    provider:
      row.llmBaseUrl && row.llmModel
        ? {
            baseUrl: row.llmBaseUrl,
            model: row.llmModel,
            credentialKey: row.llmCredentialKey,
            temperature: row.llmTemperature,
            maxTokens: row.llmMaxTokens,
          }
        : null,
    samplingBudgetTokens: row.samplingBudgetTokens,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The row of bot `slug`; throws UnknownBotError (or BotInputError for a slug outside the alphabet). */
export async function requireBotRow(db: Db, slug: string): Promise<BotRow> {
  parseInput(BotSlugSchema, slug, 'bot slug');
  const row = await findBotBySlug(db, slug);
  if (!row) throw new UnknownBotError(slug);
  return row;
}

/** Bot `slug`; throws UnknownBotError when there is none. */
export async function getBot({ db }: { db: Db }, slug: string): Promise<Bot> {
  return toBot(await requireBotRow(db, slug));
}
