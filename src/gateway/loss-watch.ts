/**
 * When does a relayed call lose its upstream (SPEC G4)? When the connection closes, and
 * for the shared connection also when its actor leaves `connected` (a failed ping, say),
 * which the transport may not notice. A session's own connection ends only by closing.
 * @module
 */
import type { EventBus } from '../bus/create-event-bus.js';
import type { Hub } from '../hub/create-hub.js';
import type { HubEvent } from '../hub/hub-event.js';
import type { LiveUpstream } from '../upstream/types.js';

/** Create the watch: `whenLost(server, upstream)` resolves with why, until disposed. */
export function createLossWatch({ hub, bus }: { hub: Hub; bus: EventBus<HubEvent> }) {
  return (server: string, upstream: LiveUpstream) => {
    const shared = hub.upstream(server) === upstream;
    let unsubscribe = () => {};
    const lost = new Promise<string>((resolve) => {
      void upstream.closed.then(() => resolve('closed the connection'));
      if (!shared) return;
      unsubscribe = bus.subscribe(({ event }) => {
        if (event.server !== server) return;
        if (event.type === 'reconnecting' || event.type === 'disabled' || event.type === 'removed')
          resolve(`went ${event.type}`);
      });
    });
    return { lost, dispose: () => unsubscribe() };
  };
}
