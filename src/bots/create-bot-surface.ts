/**
 * What the gateway serves of the bots (SPEC G8): their tools, their skills as prompts and
 * the roster of bots in reach (their activity resources, issue 18), made over one set of
 * deps whose tool port is the gateway's own call path.
 * @module
 */
import type { BotDeps } from './bot-deps.js';
import { createBotPrompts } from './create-bot-prompts.js';
import { createBotRoster } from './create-bot-roster.js';
import { createBotTools } from './create-bot-tools.js';
import type { BotPrompts, BotRoster, BotTools } from './ports.js';

/** The bot tools, prompts and roster over `deps`. */
export function createBotSurface(deps: BotDeps): { tools: BotTools; prompts: BotPrompts; roster: BotRoster } {
  return { tools: createBotTools(deps), prompts: createBotPrompts(deps), roster: createBotRoster(deps) };
}
