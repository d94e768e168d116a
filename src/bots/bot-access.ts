/**
 * Which bots a caller reaches through the bot tools and prompts (SPEC G3, G8): the admin and
 * client tokens reach every bot on `/mcp` and may create and delete bots; on
 * `/mcp/bots/{slug}` they reach that bot alone; a bot token reaches only its own bot, and
 * never creates or deletes one.
 * @module
 */
import { ForbiddenError, UnknownBotError } from '../errors.js';
import type { Db } from '../storage/create-db.js';
import type { Bot } from './bot-schemas.js';
import { getBot } from './get-bot.js';
import { listBots } from './list-bots.js';
import type { BotToolsAccess } from './ports.js';

/** `slug`: the one bot in reach (null: all); `manage`: create/delete allowed; `prefixed`: prompts named `{slug}__{skill}`. */
export type BotScope = { slug: string | null; manage: boolean; prefixed: boolean };

/** The scope of `access`; throws ForbiddenError for a bot token on another bot's endpoint. */
export function scopeOf({ caller, bot }: BotToolsAccess): BotScope {
  if (caller.kind === 'bot') {
    if (bot !== undefined && bot !== caller.slug)
      throw new ForbiddenError(`this token belongs to bot "${caller.slug}", not "${bot}"`);
    return { slug: caller.slug, manage: false, prefixed: bot === undefined };
  }
  return bot === undefined
    ? { slug: null, manage: true, prefixed: true }
    : { slug: bot, manage: false, prefixed: false };
}

/** A text naming `scope`, equal for equal scopes (the key of the cached listings). */
export const scopeKey = ({ slug, manage, prefixed }: BotScope): string => JSON.stringify([slug, manage, prefixed]);

/** Whether bot `slug` is in reach of `scope`. */
export const reaches = (scope: BotScope, slug: string): boolean => scope.slug === null || scope.slug === slug;

/** The bots in reach of `scope`, by slug (none when a bot token's bot no longer exists). */
export async function botsInScope(deps: { db: Db }, scope: BotScope): Promise<Bot[]> {
  if (scope.slug === null) return listBots(deps);
  try {
    return [await getBot(deps, scope.slug)];
  } catch (error) {
    if (error instanceof UnknownBotError) return [];
    throw error;
  }
}
