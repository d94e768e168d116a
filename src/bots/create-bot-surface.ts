/**
 * What the gateway serves of the bots (SPEC G8): their tools and their skills as prompts,
 * made over one set of deps whose tool port is the gateway's own call path.
 * @module
 */
import type { BotDeps } from './bot-deps.js';
import { createBotPrompts } from './create-bot-prompts.js';
import { createBotTools } from './create-bot-tools.js';
import type { BotPrompts, BotTools } from './ports.js';

/** The bot tools and prompts over `deps`. */
export function createBotSurface(deps: BotDeps): { tools: BotTools; prompts: BotPrompts } {
  return { tools: createBotTools(deps), prompts: createBotPrompts(deps) };
}
