/**
 * SPEC G5, G8: when a bot is created or deleted, the sessions served that bot's tools get
 * `tools/list_changed`, `prompts/list_changed` and `resources/list_changed` (its activity
 * resource, issue 18); when it is updated (name, description), the tools one; when its
 * skills change, the prompts one.
 * Which sessions: those with bot access that reach the slug (the admin's and client tokens'
 * `/mcp` sessions, the bot's own token, and `/mcp/bots/{slug}`).
 * @module
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { BotChange, BotToolsAccess } from '../../bots/ports.js';
import type { SessionRegistry } from '../session/session-registry.js';

const TOOLS: ServerNotification = { method: 'notifications/tools/list_changed' };
const PROMPTS: ServerNotification = { method: 'notifications/prompts/list_changed' };
const RESOURCES: ServerNotification = { method: 'notifications/resources/list_changed' };

/** Whether a session with `access` is served bot `slug`'s items. */
export function reachesBot(access: BotToolsAccess, slug: string): boolean {
  if (access.caller.kind === 'bot') return access.caller.slug === slug;
  return access.bot === undefined || access.bot === slug;
}

/** Tell the sessions that reach `change.slug` what changed. */
export function notifyBotChange(
  { sessions, log }: { sessions: Pick<SessionRegistry, 'all'>; log: Logger },
  change: BotChange,
): void {
  const notifications =
    change.kind === 'skills' ? [PROMPTS] : change.kind === 'updated' ? [TOOLS] : [TOOLS, PROMPTS, RESOURCES];
  for (const session of sessions.all()) {
    if (!session.botAccess || !reachesBot(session.botAccess, change.slug)) continue;
    for (const notification of notifications)
      void session.channel
        .notify(notification)
        .catch((error: unknown) => log.debug({ err: error, session: session.id }, 'list_changed not delivered'));
  }
}
