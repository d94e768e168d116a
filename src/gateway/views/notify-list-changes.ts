/**
 * SPEC G5: when what a session is shown changes (an upstream connects, drops, changes
 * its lists, or the config changes a view or how its tools are listed: search mode), that
 * session gets the matching `notifications/*\/list_changed`, and only for the kinds that changed.
 * @module
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { EventBus } from '../../bus/create-event-bus.js';
import type { AppConfig } from '../../config/schema.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { AgentSession } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';
import { VIEW_EVENTS, type ViewCache } from './view-cache.js';

const TOOLS: ServerNotification = { method: 'notifications/tools/list_changed' };
const RESOURCES: ServerNotification = { method: 'notifications/resources/list_changed' };
const PROMPTS: ServerNotification = { method: 'notifications/prompts/list_changed' };

/**
 * What besides its view decides a session's `tools/list` under a config (search mode, the
 * tools always loaded: issue 24), as a comparable key.
 */
export type ListingKey = (config: AppConfig, session: AgentSession) => string;

/** Start watching the bus; returns the function that stops it. */
export function notifyListChanges({
  bus,
  sessions,
  views,
  log,
  config,
  listingKey,
}: {
  bus: EventBus<HubEvent>;
  sessions: Pick<SessionRegistry, 'all'>;
  views: ViewCache;
  log: Logger;
  /** With `listingKey`: a config change of that key (a token's search mode…) is a tools change too. */
  config?: () => AppConfig;
  listingKey?: ListingKey;
}): () => void {
  let before = config?.();
  return bus.subscribeTo(VIEW_EVENTS, ({ event }) => {
    const previous = before;
    const now = event.type === 'config_applied' ? config?.() : undefined;
    if (now) before = now;
    for (const session of sessions.all()) {
      // One view that cannot be built must not keep every later session from its list_changed.
      let next: typeof session.fingerprint;
      try {
        next = views.view(session.spec).view.fingerprint;
      } catch (error) {
        log.error({ err: error, session: session.id }, 'list_changed not checked: the view failed');
        continue;
      }
      const was = session.fingerprint;
      session.fingerprint = next;
      if (!was) continue;
      const listing = now && previous && listingKey && listingKey(previous, session) !== listingKey(now, session);
      const changed = [
        (was.tools !== next.tools || listing) && TOOLS,
        was.resources !== next.resources && RESOURCES,
        was.prompts !== next.prompts && PROMPTS,
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
