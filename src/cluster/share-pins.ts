/**
 * Rug-pull pins across the fleet (issue 22 part 7): each replica has its own upstream
 * connections and keeps the pins in memory over the one `tool_pins` table. When this replica
 * quarantines a tool, has one approved, or summarizes a churning server's changes, it says so
 * on the fleet bus (`pins.changed`, the server's name; one message per server and turn);
 * every other replica reads that server's pins again (`PinGuard.reload`), so a tool
 * quarantined by one replica is hidden by all (policy `strict`), and an approval through any
 * lifts it on all. Events a reload publishes are marked `relayedFrom` and not sent on again.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { FleetBus } from './fleet-bus.js';

/** The topic: `{ server }` whose stored pins changed. */
export const PINS_TOPIC = 'pins.changed';

/** Options of {@link sharePins}. */
export type SharePinsOptions = {
  fleet: FleetBus;
  /** This replica's events: its pin guard's quarantines and approvals. */
  events: EventBus<HubEvent>;
  /** Read `server`'s pins again (the guard's `reload`). */
  reload(server: string, from: string): Promise<void>;
  /** The servers whose pins are read again after the bus listens again (messages may have been missed). */
  servers: () => readonly string[];
  log: Pick<Logger, 'warn'>;
};

/** Share this replica's pin changes and follow the others'; resolves once listening, with the stop. */
export async function sharePins({
  fleet,
  events,
  reload,
  servers,
  log,
}: SharePinsOptions): Promise<() => Promise<void>> {
  const reloadLogged = (server: string, from: string) =>
    reload(server, from).catch((error: unknown) =>
      log.warn({ err: error, server, from }, 'pins changed by another replica could not be read again'),
    );
  let listening = false;
  const unsubscribe = await fleet.subscribe(
    PINS_TOPIC,
    async ({ self, from, payload }) => {
      if (self) return;
      const { server } = (payload ?? {}) as { server?: unknown };
      if (typeof server !== 'string')
        throw new Error(`${PINS_TOPIC}: ${JSON.stringify(payload)?.slice(0, 200)} names no server; ignored`);
      await reloadLogged(server, from);
    },
    {
      // The first time, the pins were just read at start; later, after a drop, they are read again.
      onReady: () => {
        if (listening) for (const server of servers()) void reloadLogged(server, 'the database');
        listening = true;
      },
    },
  );
  // One message per server and turn: a check that quarantines ten tools sends one.
  const due = new Set<string>();
  const send = () => {
    for (const server of due)
      void fleet
        .publish(PINS_TOPIC, { server })
        .catch((error: unknown) => log.warn({ err: error, server }, 'pin change not told to the other replicas'));
    due.clear();
  };
  const stopEvents = events.subscribeTo(['tool_quarantined', 'tool_approved', 'catalog_churn'], ({ event }) => {
    if (event.type !== 'catalog_churn' && event.relayedFrom !== undefined) return;
    if (due.size === 0) setImmediate(send);
    due.add(event.server);
  });
  return async () => {
    stopEvents();
    await unsubscribe();
  };
}
