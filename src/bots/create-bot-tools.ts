/**
 * The bot tools the gateway serves (SPEC G8): the list for a caller, calls, and a signal
 * when bots are created or deleted (so the gateway can send `tools/list_changed`).
 * @module
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { botsInScope, scopeKey, scopeOf } from './bot-access.js';
import type { BotDeps } from './bot-deps.js';
import { botToolSchemas, listBotToolDefinitions } from './bot-tool-list.js';
import { cachePerChange } from './cache-per-change.js';
import { callBotTool } from './call-bot-tool.js';
import type { BotSummary, BotTools } from './ports.js';

/** Create the bot tools of one service. */
export function createBotTools(deps: BotDeps): BotTools {
  const schemas = botToolSchemas();
  // The same array while no bot changes: the gateway's listing, its hash and bytes are then reused too.
  const cached = cachePerChange<Tool[]>(deps.changes);
  const summaries = cachePerChange<BotSummary[]>(deps.changes);
  return {
    async list(access) {
      const scope = scopeOf(access);
      return cached(scopeKey(scope), async () =>
        listBotToolDefinitions(scope, await botsInScope(deps, scope), schemas),
      );
    },
    bots(access) {
      const scope = scopeOf(access);
      return summaries(scopeKey(scope), async () =>
        (await botsInScope(deps, scope)).map(({ slug, name, description }) => ({ slug, name, description })),
      );
    },
    call: (name, args, context) => callBotTool(deps, name, args, context),
    onChange: (listener) => deps.changes.subscribe((envelope) => listener(envelope.event)),
  };
}
