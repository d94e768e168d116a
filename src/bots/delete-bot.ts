/**
 * Deleting a bot (SPEC B1, G8 `delete_bot`): its memories, skills, workflows, chat history,
 * sampling usage and tokens go with it. Its view in the config file stays (the registry
 * then reports it as config-only).
 * @module
 */
import { UnknownBotError } from '../errors.js';
import { deleteBotBySlug } from '../storage/bot-repo.js';
import { revokeBotTokens } from '../storage/token-repo.js';
import type { BotDeps } from './bot-deps.js';
import { BotSlugSchema } from './bot-schemas.js';
import { parseInput } from './parse-input.js';

/** Delete bot `slug` and publish `deleted` and `bot_deleted`; throws UnknownBotError when there is none. */
export async function deleteBot(
  { db, changes, events }: Pick<BotDeps, 'db' | 'changes' | 'events'>,
  slug: string,
): Promise<void> {
  parseInput(BotSlugSchema, slug, 'bot slug');
  if (!(await deleteBotBySlug(db, slug))) throw new UnknownBotError(slug);
  // Its tokens go with it: kept, they would stand for whatever bot takes the slug next. The
  // sessions they opened end on `deleted` (the gateway's `end-gone-bots.ts`).
  await revokeBotTokens(db, slug);
  changes.publish({ kind: 'deleted', slug });
  events.publish({ type: 'bot_deleted', server: null, bot: slug });
}
