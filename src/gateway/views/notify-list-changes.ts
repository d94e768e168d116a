/**
 * SPEC G5: when what a session is shown changes (an upstream connects, drops, changes
 * its lists, or the config changes a view), that session gets the matching
 * `notifications/*\/list_changed`, and only for the kinds that changed.
 * @module
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { EventBus } from '../../bus/create-event-bus.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { SessionRegistry } from '../session/session-registry.js';
import { VIEW_EVENTS, type ViewCache } from './view-cache.js';

const TOOLS: ServerNotification = { method: 'notifications/tools/list_changed' };
const RESOURCES: ServerNotification = { method: 'notifications/resources/list_changed' };
const PROMPTS: ServerNotification = { method: 'notifications/prompts/list_changed' };

/** Start watching the bus; returns the function that stops it. */
export function notifyListChanges({
  bus,
  sessions,
  views,
  log,
}: {
  bus: EventBus<HubEvent>;
  sessions: Pick<SessionRegistry, 'all'>;
  views: ViewCache;
  log: Logger;
}): () => void {
  return bus.subscribe(({ event }) => {
    if (!VIEW_EVENTS.has(event.type)) return;
    for (const session of sessions.all()) {
      // One view that cannot be built must not keep every later session from its list_changed.
      let next: typeof session.fingerprint;
      try {
        next = views.view(session.spec).view.fingerprint;
      } catch (error) {
        log.error({ err: error, session: session.id }, 'list_changed not checked: the view failed');
        continue;
      }
      const before = session.fingerprint;
      session.fingerprint = next;
      if (!before) continue;
      const changed = [
        before.tools !== next.tools && TOOLS,
        before.resources !== next.resources && RESOURCES,
        before.prompts !== next.prompts && PROMPTS,
      ];
      for (const notification of changed) {
        if (!notification) continue;
        void session.channel
          .notify(notification)
          .catch((error: unknown) => log.debug({ err: error, session: session.id }, 'list_changed not delivered'));
      }
    }
  });
}
