/**
 * Bot activity as a resource (issue 18, ADR 023): `boternity://bots/{slug}/activity` reads
 * as the bot's last {@link MAX_EVENTS} events (newest last, each the `data` of its
 * `boternity.bots` log message), kept per bot from the bus and dropped when the bot is
 * deleted. Each event of a bot sends `notifications/resources/updated` for its URI to the
 * sessions holding it: a 2025 session's `resources/subscribe`, or the view session of a
 * 2026-07-28 `subscriptions/listen` stream whose filter names it (the SDK hands the update
 * to those streams only). That is the modern era's one server-initiated carrier. Held
 * URIs sit in the session's subscriptions under {@link ACTIVITY_OWNER}, which no server
 * name can be, so no upstream is told and the reference counts of shared connections
 * never see them.
 * @module
 */
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Envelope, EventBus } from '../../bus/create-event-bus.js';
import type { BotEvent, HubEvent } from '../../events/hub-event.js';
import type { AgentSession } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';
import { botActivityUri } from './bot-activity-uri.js';
import { reachesBot } from './notify-bot-changes.js';
import { BOT_EVENT_TYPES, botEventMessage } from './push-bot-events.js';

/** Events kept per bot. */
export const MAX_EVENTS = 50;
/** The most a read's JSON text takes: the oldest events kept are left out past it. */
export const MAX_BYTES = 64 * 1024;
/** The owner recorded for a held activity URI (a server name starts with a letter or digit). */
export const ACTIVITY_OWNER = '#bots';

type Kept = { readonly data: Record<string, unknown>; readonly bytes: number };

/** The activity the gateway keeps and tells of. */
export type BotActivity = {
  /** The resource of bot `slug` as a read answers it. */
  read(slug: string): ReadResourceResult;
  /** Stop listening to the bus. */
  stop(): void;
};

/** Whether `session` is told of bot `slug`'s activity: it holds the URI and reaches the bot. */
const holds = (session: AgentSession, slug: string, uri: string): boolean =>
  session.subscriptions.get(uri)?.server === ACTIVITY_OWNER &&
  session.botAccess !== null &&
  reachesBot(session.botAccess, slug);

/** Keep every bot's last events from `bus` and tell the sessions holding its URI. */
export function createBotActivity({
  bus,
  sessions,
  log,
  maxEvents = MAX_EVENTS,
  maxBytes = MAX_BYTES,
}: {
  bus: Pick<EventBus<HubEvent>, 'subscribeTo'>;
  sessions: Pick<SessionRegistry, 'all'>;
  log: Logger;
  maxEvents?: number;
  maxBytes?: number;
}): BotActivity {
  const kept = new Map<string, Kept[]>();
  const keep = (envelope: Envelope<BotEvent>) => {
    const { bot } = envelope.event;
    if (envelope.event.type === 'bot_deleted') {
      kept.delete(bot);
      return;
    }
    const data = botEventMessage(envelope).params.data as Record<string, unknown>;
    const ring = kept.get(bot) ?? [];
    ring.push({ data, bytes: Buffer.byteLength(JSON.stringify(data)) + 1 });
    if (ring.length > maxEvents) ring.shift();
    kept.set(bot, ring);
  };
  const stop = bus.subscribeTo(BOT_EVENT_TYPES, (envelope) => {
    const { event } = envelope;
    keep(envelope);
    const uri = botActivityUri(event.bot);
    // Fire and forget: a chat turn or a workflow run never waits for a client.
    for (const session of sessions.all()) {
      if (!holds(session, event.bot, uri)) continue;
      void session.channel
        .notify({ method: 'notifications/resources/updated', params: { uri } })
        .catch((error: unknown) => log.debug({ err: error, session: session.id }, 'activity update not delivered'));
    }
  });
  return {
    read(slug) {
      const ring = kept.get(slug) ?? [];
      // Newest last, and the newest kept when the bytes run out.
      let bytes = 0;
      let from = ring.length;
      while (from > 0 && bytes + (ring[from - 1]?.bytes ?? 0) <= maxBytes) {
        from -= 1;
        bytes += ring[from]?.bytes ?? 0;
      }
      const events = ring.slice(from).map((k) => k.data);
      const text = JSON.stringify({ bot: slug, events, omitted: from });
      return { contents: [{ uri: botActivityUri(slug), mimeType: 'application/json', text }] };
    },
    stop,
  };
}
