/**
 * A view of a bus for a subscriber that starts late but must see everything (issue 8: the
 * upstreams start before the audit, metrics and the connection mirror exist): subscribing
 * first hands it what the bus still holds of the run so far, then what comes.
 * @module
 */
import type { EventBus } from './create-event-bus.js';

/** `bus`, whose `subscribe` first replays every event still in its window. */
export function replayFromStart<E>(bus: EventBus<E>): EventBus<E> {
  return {
    ...bus,
    subscribe(listener) {
      // Synchronous: no event can be published between the replay and the subscription. A
      // listener's failure on an old event is its own, as on the bus (never the caller's).
      for (const envelope of bus.since(0) ?? []) {
        try {
          listener(envelope);
        } catch {}
      }
      return bus.subscribe(listener);
    },
  };
}
