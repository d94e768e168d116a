/**
 * A view of a bus for a subscriber that starts late but must see everything (issue 8: the
 * upstreams start before the audit, metrics and the connection mirror exist): subscribing
 * first hands it what the bus still holds of the run so far, then what comes.
 * @module
 */
import { type Envelope, type EventBus, type Listener, typeOf, wants } from './create-event-bus.js';

/** `bus`, whose `subscribe` and `subscribeTo` first replay every event still in its window (of those types). */
export function replayFromStart<E>(bus: EventBus<E>): EventBus<E> {
  // Synchronous: no event can be published between the replay and the subscription. A
  // listener's failure on an old event is its own, as on the bus (never the caller's).
  const replay = (listener: Listener<E>, types: ReadonlySet<string> | null): void => {
    for (const envelope of bus.since(0) ?? []) {
      if (!wants(types, typeOf(envelope.event))) continue;
      try {
        listener(envelope);
      } catch {}
    }
  };
  return {
    ...bus,
    subscribe(listener) {
      replay(listener, null);
      return bus.subscribe(listener);
    },
    subscribeTo(types, listener) {
      replay(listener as (envelope: Envelope<E>) => void, new Set(types));
      return bus.subscribeTo(types, listener);
    },
  };
}
