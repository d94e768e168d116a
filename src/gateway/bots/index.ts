/**
 * The entry of src/gateway/bots/ (part `gateway-bots` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */

export type { BotActivity } from './bot-activity.js';
export { ACTIVITY_OWNER } from './bot-activity.js';
export { botsFor, listBotItems } from './bot-items.js';
export { createBotToolCaller } from './bot-tool-caller.js';
export { completeBotPrompt } from './complete-bot-prompt.js';
export { getBotPrompt } from './get-bot-prompt.js';
export { isBotEvent } from './push-bot-events.js';
export { activityOf, listBotResources, readBotActivity, subscribeBotActivity } from './serve-bot-activity.js';
export { serveBotTool } from './serve-bot-tool.js';
export { wireBots } from './wire-bots.js';
