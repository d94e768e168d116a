/**
 * `GET /api/events` (SPEC A2): server-sent events. A snapshot first (unless the client
 * resumes with `Last-Event-ID` inside the replay window), then every bus event live,
 * with heartbeats. `?server=a,b` filters by server.
 * @module
 */
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Envelope, EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Hub } from '../hub/create-hub.js';

/** Options of {@link eventsRoute}. */
export type EventsRouteOptions = { hub: Hub; bus: EventBus<HubEvent>; heartbeatMs?: number };

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
export function eventsRoute({ hub, bus, heartbeatMs = 15_000 }: EventsRouteOptions) {
  return function events(c: Context) {
    const servers = c.req.query('server')?.split(',').filter(Boolean) ?? [];
    const wanted = (event: HubEvent) =>
      servers.length === 0 || (event.server !== null && servers.includes(event.server));
    const lastId = parseLastId(c.req.header('last-event-id') ?? c.req.query('lastEventId'), bus.bootId);
    const sseId = (seq: number) => `${bus.bootId}-${seq}`;

    return streamSSE(c, async (stream) => {
      // Subscribe and take the snapshot in the same tick, so no event falls between them.
      const queue: Envelope<HubEvent>[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = bus.subscribe((envelope) => {
        queue.push(envelope);
        wake?.();
      });
      const missed = lastId === null ? null : bus.since(lastId);
      const snapshotId = bus.lastId();
      const snapshot =
        missed === null ? hub.listServers().filter((s) => servers.length === 0 || servers.includes(s.name)) : null;

      let open = true;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      const heartbeat = setInterval(() => {
        void stream.write(': heartbeat\n\n').catch(() => undefined);
      }, heartbeatMs);
      try {
        if (snapshot)
          await stream.writeSSE({
            event: 'snapshot',
            id: sseId(snapshotId),
            data: JSON.stringify({ servers: snapshot }),
          });
        for (const envelope of missed ?? []) if (wanted(envelope.event)) await write(envelope);
        while (open) {
          const envelope = queue.shift();
          if (!envelope) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = null;
            continue;
          }
          if (envelope.id > snapshotId && wanted(envelope.event)) await write(envelope);
        }
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }

      async function write(envelope: Envelope<HubEvent>) {
        const data = JSON.stringify({ ...envelope.event, at: new Date(envelope.at).toISOString() });
        await stream.writeSSE({ event: envelope.event.type, id: sseId(envelope.id), data });
      }
    });
  };
}
