/**
 * SPEC G5: when what a session is shown changes (an upstream connects, drops, changes
 * its lists, or the config changes a view), that session gets the matching
 * `notifications/*\/list_changed`, and only for the kinds that changed.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../hub/hub-event.js';
import type { AggregatedView } from './aggregate.js';
import type { GatewaySession } from './gateway-session.js';

/** Events after which a view may differ. */
export const VIEW_EVENTS: ReadonlySet<HubEvent['type']> = new Set<HubEvent['type']>([
  'connected',
  'reconnecting',
  'disabled',
  'removed',
  'catalog_changed',
  'config_applied',
  'tool_quarantined',
  'tool_approved',
]);

/** Start watching the bus; returns the function that stops it. */
export function notifyListChanges({
  bus,
  sessions,
  view,
  log,
}: {
  bus: EventBus<HubEvent>;
  sessions: () => Iterable<GatewaySession>;
  view: (session: GatewaySession) => AggregatedView;
  log: Logger;
}): () => void {
  return bus.subscribe(({ event }) => {
    if (!VIEW_EVENTS.has(event.type)) return;
    for (const session of sessions()) {
      const next = view(session).fingerprint;
      const before = session.fingerprint;
      session.fingerprint = next;
      if (!before) continue;
      const sends: Promise<void>[] = [];
      if (before.tools !== next.tools) sends.push(session.server.sendToolListChanged());
      if (before.resources !== next.resources) sends.push(session.server.sendResourceListChanged());
      if (before.prompts !== next.prompts) sends.push(session.server.sendPromptListChanged());
      for (const send of sends)
        void send.catch((error: unknown) =>
          log.debug({ err: error, session: session.id }, 'list_changed not delivered'),
        );
    }
  });
}
