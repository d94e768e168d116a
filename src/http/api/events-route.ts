/**
 * `GET /api/events` (SPEC A2): server-sent events. A snapshot first (unless the client
 * resumes with `Last-Event-ID` inside the replay window), then every bus event live,
 * with heartbeats. `?server=a,b` keeps the events of those servers; `?bot=SLUG` those of
 * the servers in that bot's view (as it is when each event comes) and events naming the bot
 * (its own activity: `bot_*`, `chat_message`, `workflow_*`). The bot may live in the config
 * file, the registry, or both.
 * A client that stops reading is let go once it leaves more than the bound unsent (X8); it
 * resumes with `Last-Event-ID` while the bus's window still holds what it missed.
 * @module
 */
import type { HttpBindings } from '@hono/node-server';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Envelope, EventBus } from '../../bus/create-event-bus.js';
import type { AppConfig } from '../../config/schema.js';
import { UnknownBotError } from '../../errors.js';
import type { HubEvent } from '../../events/hub-event.js';
import { effectiveServers } from '../../gateway/views/index.js';
import type { Hub } from '../../hub/create-hub.js';
import { createSseWriteGuard, type SseWriteGuard } from '../io/index.js';
import { errorResponses } from './api-schemas.js';

/** The route as the OpenAPI document describes it. */
export const eventsRouteSpec = createRoute({
  method: 'get',
  path: '/events',
  tags: ['events'],
  summary: 'Server-sent events: a snapshot, then every event live (A2)',
  description:
    "Each event's `event:` is its type and its `data:` is JSON naming the `server` (null for config-wide ones and bot activity) and the `replica` it happened on (cluster mode: each replica streams its own events). " +
    'Bot activity: `bot_created`, `bot_updated`, `bot_deleted`, `chat_message` (a bounded, masked excerpt), `workflow_started`, `workflow_step_finished` (one per step as it ends), `workflow_finished`; ignore a type you do not know. ' +
    'Ids are `<boot>-<seq>`: send the last one back as `Last-Event-ID` (or `?lastEventId=`) to resume. ' +
    'A `: heartbeat` comment comes every 15 s.',
  request: {
    query: z.object({
      server: z
        .string()
        .optional()
        .openapi({ description: 'Only these servers (comma-separated)', example: 'memory,fs' }),
      bot: z.string().optional().openapi({
        description: "Only the servers in this bot's view, and the bot's own events (a config or registry bot)",
      }),
      lastEventId: z.string().optional().openapi({ description: 'Resume after this id (as the Last-Event-ID header)' }),
    }),
  },
  responses: {
    200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(400, 404),
  },
});

/** Whether an event is about `slug` itself (bot events carry `bot` or `slug`). */
const namesBot = (event: HubEvent, slug: string): boolean => {
  const fields = event as { bot?: unknown; slug?: unknown };
  return fields.bot === slug || fields.slug === slug;
};

/** Whether `event` names a bot other than `slug` (a `tool_call` made by or for it). */
const namesOtherBot = (event: HubEvent, slug: string): boolean => {
  const named = (event as { bot?: unknown }).bot;
  return typeof named === 'string' && named !== slug;
};

/** Options of {@link eventsRoute}. */
export type EventsRouteOptions = {
  hub: Hub;
  config: () => AppConfig;
  bus: EventBus<HubEvent>;
  heartbeatMs?: number;
  /** The bound on what a client leaves unsent (X8), shared with the MCP endpoints; absent: one of its own. */
  writeGuard?: SseWriteGuard;
  /** Whether the registry has a bot (`?bot=` takes one made with `bnity bot create` too); absent: config bots only. */
  botExists?: (slug: string) => Promise<boolean>;
  /** The replica these events happen on (ADR 041): each event's `replica`; null when unnamed. */
  replica?: string | null;
};

/**
 * SSE ids are `<bootId>-<seq>`: an id from another run of the service cannot be resumed
 * (the client gets a snapshot). `0` asks for every event still in the replay window.
 */
const parseLastId = (value: string | undefined, bootId: string): number | null => {
  if (value === '0') return 0;
  const match = /^([a-z0-9]+)-(\d+)$/.exec(value ?? '');
  return match && match[1] === bootId ? Number(match[2]) : null;
};

/** The route handler. */
export function eventsRoute({
  hub,
  config,
  bus,
  heartbeatMs = 15_000,
  writeGuard = createSseWriteGuard({ maxUnsentBytes: () => config().http.maxUnsentBytesPerStream }),
  botExists,
  replica = null,
}: EventsRouteOptions) {
  return async function events(c: Context) {
    const servers = c.req.query('server')?.split(',').filter(Boolean) ?? [];
    const bot = c.req.query('bot');
    // A bot lives in the config file, the registry, or both (ADR 012); in neither it is unknown.
    if (bot !== undefined && !Object.hasOwn(config().bots, bot) && !(await botExists?.(bot)))
      throw new UnknownBotError(bot);
    // The bot's view as it is now: a bot removed since the stream opened sees no server.
    const inBotView = (server: string) => {
      if (bot === undefined) return true;
      try {
        return effectiveServers(config(), { kind: 'bot', slug: bot }).includes(server);
      } catch {
        return false;
      }
    };
    const serverWanted = (server: string | null) =>
      server !== null && (servers.length === 0 || servers.includes(server)) && inBotView(server);
    // With ?bot=, an event of another bot (its tool call on a server this one sees too) is not this one's.
    const wanted = (event: HubEvent) =>
      (servers.length === 0 && bot === undefined) ||
      (bot === undefined || !namesOtherBot(event, bot) ? serverWanted(event.server) : false) ||
      (bot !== undefined && namesBot(event, bot));
    const lastId = parseLastId(c.req.header('last-event-id') ?? c.req.query('lastEventId'), bus.bootId);
    const sseId = (seq: number) => `${bus.bootId}-${seq}`;

    return streamSSE(c, async (stream) => {
      // Behind node:http, the response: what it holds unsent counts against the bound (X8).
      const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
      const label = { kind: 'api_events' } as const;
      // Frames wait here, counted, while the client reads: a client that stops reading is let
      // go at the bound instead of holding every event published meanwhile.
      const queue: string[] = [];
      let queued = 0;
      // The replay, while the client takes it: its own backlog, not a sign that it stopped.
      let replayed = 0;
      let open = true;
      let wake: (() => void) | null = null;
      const close = () => {
        open = false;
        queue.length = 0;
        outgoing?.destroy();
        stream.abort();
      };
      const push = (frame: string) => {
        queue.push(frame);
        queued += frame.length;
        wake?.();
      };
      // The batch being written is not counted: at most one, no larger than the bound (or the replay).
      const enqueue = (frame: string) => {
        if (!open) return;
        const unsent = (outgoing?.writableLength ?? 0) + queued;
        replayed = Math.min(replayed, unsent);
        if (writeGuard.overBound(unsent - replayed, label)) close();
        else push(frame);
      };
      // The snapshot and the subscription in the same tick, so no event falls between them.
      const missed = lastId === null ? null : bus.since(lastId);
      const snapshotId = bus.lastId();
      const snapshot =
        missed === null
          ? hub.listServers().filter((s) => (servers.length === 0 && bot === undefined) || serverWanted(s.name))
          : null;
      const unsubscribe = bus.subscribe((envelope) => {
        if (envelope.id > snapshotId && wanted(envelope.event)) enqueue(frameOf(envelope));
      });
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      const heartbeat = setInterval(() => enqueue(': heartbeat\n\n'), heartbeatMs);
      try {
        if (snapshot)
          await stream.writeSSE({
            event: 'snapshot',
            id: sseId(snapshotId),
            // Shaped as every event is (`type`, `server`: null, as a config-wide event's), plus the list.
            data: JSON.stringify({
              type: 'snapshot',
              server: null,
              servers: snapshot.map((s) => ({ ...s, replica })),
              replica,
            }),
          });
        // The replay is the client's to take whatever its size (it is bounded by the bus's window).
        for (const envelope of missed ?? []) if (wanted(envelope.event)) push(frameOf(envelope));
        replayed = queued;
        while (open) {
          if (queue.length === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = null;
            continue;
          }
          // What waited goes in one write.
          const batch = queue.join('');
          queue.length = 0;
          queued = 0;
          await stream.write(batch);
        }
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
    });
  };

  /** One bus event as an SSE frame (its JSON has no line breaks: one `data:` line). */
  function frameOf(envelope: Envelope<HubEvent>): string {
    const event = envelope.event;
    // One another replica saw and relayed is that replica's (a pin change, a bot's activity).
    const from = 'relayedFrom' in event && typeof event.relayedFrom === 'string' ? event.relayedFrom : replica;
    const data = JSON.stringify({ ...event, at: new Date(envelope.at).toISOString(), replica: from });
    return `event: ${envelope.event.type}\ndata: ${data}\nid: ${bus.bootId}-${envelope.id}\n\n`;
  }
}
