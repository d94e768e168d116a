/**
 * How a server's notification flood is told (issue 17): a `server_flooding` event on the
 * bus and one warning in the log when it starts, and again when it stops, with the counts.
 * Nothing per dropped notification.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { FloodChange } from '../upstream/notification-limits.js';

/** The `onChange` of the service's notification limits. */
export function reportFlood(log: Logger, bus: EventBus<HubEvent>): (change: FloodChange) => void {
  return (change) => {
    const { server, perSecond, burst } = change;
    if (change.flooding) {
      log.warn({ server, perSecond, burst }, 'upstream flooding notifications: dropping those over its rate');
    } else {
      const { dropped, byKind, durationMs } = change;
      log.warn({ server, dropped, byKind, durationMs }, 'upstream stopped flooding notifications');
    }
    bus.publish({ type: 'server_flooding', ...change });
  };
}
