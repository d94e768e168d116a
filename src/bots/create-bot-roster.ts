/**
 * The registry bots a caller reaches, by slug (issue 18): every bot on `/mcp`, that bot on
 * `/mcp/bots/{slug}` and for a bot token, as their tools are listed. The gateway lists an
 * activity resource for each.
 * @module
 */
import { botsInScope, scopeKey, scopeOf } from './bot-access.js';
import type { BotDeps } from './bot-deps.js';
import { cachePerChange } from './cache-per-change.js';
import type { BotRoster } from './ports.js';

/** Create the roster of one service: the same array while no bot changes. */
export function createBotRoster(deps: Pick<BotDeps, 'db' | 'changes'>): BotRoster {
  const cached = cachePerChange<readonly string[]>(deps.changes);
  return {
    async slugs(access) {
      const scope = scopeOf(access);
      return cached(scopeKey(scope), async () => (await botsInScope(deps, scope)).map((bot) => bot.slug));
    },
  };
}
