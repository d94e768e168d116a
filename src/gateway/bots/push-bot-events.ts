/**
 * Bot activity pushed to MCP sessions (seed 003 "Bot-as-server exposure", issue 18, ADR 023):
 * each bot event of the bus (`bot_created`, `bot_updated`, `bot_deleted`, `chat_message`,
 * `workflow_started`, `workflow_step_finished`, `workflow_finished`) goes to the sessions that reach that bot, the
 * ones {@link notifyBotChange} tells of list changes: the admin's and client tokens' `/mcp`
 * sessions, the bot's own token, and `/mcp/bots/{slug}`. The carrier is a logging message
 * (`notifications/message`, level `info`, logger `boternity.bots`, the event as `data`),
 * which the endpoints declare (`logging`) and which clients show; a session that set a level
 * above `info` gets none. A 2026-07-28 view session takes it too, but its listen streams carry
 * only list changes and resource updates, so it goes no further: that era follows a bot
 * through its activity resource instead (bot-activity.ts).
 * Fire and forget: the publisher (a chat turn, a workflow) never waits, and what a slow
 * client leaves unsent is bounded by its stream's guard (X8).
 * @module
 */
import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Envelope, EventBus } from '../../bus/create-event-bus.js';
import type { BotEvent, HubEvent } from '../../events/hub-event.js';
import type { AgentSession } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';
import { reachesBot } from './notify-bot-changes.js';

/** The logger name bot events carry: a client can tell them from upstream servers' logs. */
export const BOT_EVENTS_LOGGER = 'boternity.bots';

/** The bots' activity: what {@link isBotEvent} tells apart. */
export const BOT_EVENT_TYPES: ReadonlySet<BotEvent['type']> = new Set<BotEvent['type']>([
  'bot_created',
  'bot_updated',
  'bot_deleted',
  'chat_message',
  'workflow_started',
  'workflow_step_finished',
  'workflow_finished',
]);

/** Below `info` (or none set) the session hears them; `notice` and above it does not. */
const HEARS_INFO: ReadonlySet<LoggingLevel> = new Set<LoggingLevel>(['debug', 'info']);

/** Whether `event` is one of the bots' activity. */
export const isBotEvent = (event: HubEvent): event is BotEvent =>
  (BOT_EVENT_TYPES as ReadonlySet<string>).has(event.type);

/** The logging message of one bot event: `data` is the event as `/api/events` sends it, `type` named `event`. */
export function botEventMessage({ event, at }: Envelope<BotEvent>): LoggingMessageNotification {
  const { type, server: _server, ...fields } = event;
  return {
    method: 'notifications/message',
    params: {
      level: 'info',
      logger: BOT_EVENTS_LOGGER,
      data: { event: type, ...fields, at: new Date(at).toISOString() },
    },
  };
}

/** Whether `session` is pushed the events of bot `slug`. */
export function hearsBot(session: AgentSession, slug: string): boolean {
  if (!session.botAccess || !reachesBot(session.botAccess, slug)) return false;
  return session.loggingLevel === null || HEARS_INFO.has(session.loggingLevel);
}

/** Push every bot event of `bus` to the sessions that reach its bot; returns the unsubscribe. */
export function pushBotEvents({
  bus,
  sessions,
  log,
}: {
  bus: Pick<EventBus<HubEvent>, 'subscribeTo'>;
  sessions: Pick<SessionRegistry, 'all'>;
  log: Logger;
}): () => void {
  return bus.subscribeTo(BOT_EVENT_TYPES, (envelope) => {
    const { event } = envelope;
    let message: LoggingMessageNotification | null = null;
    for (const session of sessions.all()) {
      if (!hearsBot(session, event.bot)) continue;
      message ??= botEventMessage(envelope);
      void session.channel
        .notify(message)
        .catch((error: unknown) => log.debug({ err: error, session: session.id }, 'bot event not delivered'));
    }
  });
}
