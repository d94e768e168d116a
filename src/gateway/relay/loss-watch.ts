/**
 * When does a relayed call lose its upstream (SPEC G4)? When the connection closes, and
 * for the shared connection also when its actor leaves `connected` (a failed ping, say),
 * which the transport may not notice. One bus subscription and one `closed` handler per
 * connection serve every call: a call's waiter is dropped when it ends, so nothing of a
 * finished call stays reachable from a long-lived connection.
 * @module
 */
import type { EventBus } from '../../bus/create-event-bus.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { UpstreamSession } from '../../upstream/types.js';

type Waiter = (why: string) => void;

/** A call's watch: `lost` resolves with the reason; `dispose()` when the call is over. */
export type LossWatch = { lost: Promise<string>; dispose(): void };

/** Watches connections for the calls in flight on them. */
export type LossWatcher = {
  /** Watch `upstream` for a call; `shared`: the hub's connection of `server` (its state counts too). */
  watch(server: string, upstream: UpstreamSession, shared: boolean): LossWatch;
  stop(): void;
};

/** Create the watcher; `stop()` ends its bus subscription. */
export function createLossWatch({ bus }: { bus: EventBus<HubEvent> }): LossWatcher {
  const byUpstream = new WeakMap<UpstreamSession, Set<Waiter>>();
  const sharedByServer = new Map<string, Set<Waiter>>();

  const stop = bus.subscribeTo(['reconnecting', 'needs_authorization', 'disabled', 'removed'], ({ event }) => {
    // Why it went (a failed liveness check, a closed pipe) is part of what the caller reads.
    const why = event.type === 'reconnecting' && event.error ? ` (${event.error.message})` : '';
    for (const waiter of sharedByServer.get(event.server) ?? []) waiter(`went ${event.type}${why}`);
  });

  const watch = (server: string, upstream: UpstreamSession, shared: boolean): LossWatch => {
    let waiters = byUpstream.get(upstream);
    if (!waiters) {
      const created = new Set<Waiter>();
      waiters = created;
      byUpstream.set(upstream, created);
      void upstream.closed.then(() => {
        for (const waiter of created) waiter('closed the connection');
      });
    }
    let resolveLost: Waiter = () => undefined;
    const lost = new Promise<string>((resolve) => {
      resolveLost = resolve;
    });
    waiters.add(resolveLost);
    let serverWaiters: Set<Waiter> | undefined;
    if (shared) {
      serverWaiters = sharedByServer.get(server) ?? new Set();
      sharedByServer.set(server, serverWaiters);
      serverWaiters.add(resolveLost);
    }
    const own = waiters;
    return {
      lost,
      dispose() {
        own.delete(resolveLost);
        if (serverWaiters?.delete(resolveLost) && serverWaiters.size === 0) sharedByServer.delete(server);
      },
    };
  };
  return { watch, stop };
}
