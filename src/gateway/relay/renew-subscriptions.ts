/**
 * Resource subscriptions held by agents on a shared connection are renewed when that
 * connection comes back: the new upstream session knows nothing of the old one's (G6).
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../../bus/create-event-bus.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { Hub } from '../../hub/create-hub.js';
import type { SessionRegistry } from '../session/session-registry.js';

/** Start renewing; returns the function that stops it. */
export function renewSubscriptions({
  hub,
  bus,
  sessions,
  log,
}: {
  hub: Pick<Hub, 'upstream'>;
  bus: EventBus<HubEvent>;
  sessions: Pick<SessionRegistry, 'sharedUris'>;
  log: Logger;
}): () => void {
  return bus.subscribeTo(['connected'], ({ event }) => {
    const upstream = hub.upstream(event.server);
    for (const uri of sessions.sharedUris(event.server)) {
      void upstream?.subscribe(uri).catch((error: unknown) => {
        log.warn({ err: error, server: event.server, uri }, 'could not renew a resource subscription');
      });
    }
  });
}
