/**
 * When may a session's first list be answered (G1, issue 7)? Once every server of its view
 * has left `connecting` (connected, or failed and reconnecting, or disabled), or after
 * `gateway.firstListWaitMs`, whichever comes first: a client that lists once at start-up
 * sees the tools of servers that were still starting.
 * @module
 */
import type { EventBus } from '../../bus/create-event-bus.js';
import type { AppConfig } from '../../config/schema.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { Hub } from '../../hub/create-hub.js';
import { viewServers } from '../views/index.js';
import type { AgentSession } from './agent-session.js';

/**
 * Create the wait; each call settles on its own bound. It takes a session, or any view (a
 * starting replica waits on `{ spec: { kind: 'all' } }` before it listens, issue 22).
 */
export function createServersSettled({
  bus,
  hub,
  config,
}: {
  bus: EventBus<HubEvent>;
  hub: Pick<Hub, 'getServer'>;
  config: () => AppConfig;
}): (session: Pick<AgentSession, 'spec'>) => Promise<void> {
  const connecting = (server: string): boolean => {
    try {
      return hub.getServer(server).state === 'connecting';
    } catch {
      return false; // being removed: nothing to wait for
    }
  };
  const settled = (session: Pick<AgentSession, 'spec'>) => !viewServers(config(), session.spec).some(connecting);

  return (session) => {
    if (settled(session)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        unsubscribe();
        clearTimeout(timer);
        resolve();
      };
      const unsubscribe = bus.subscribe(() => {
        if (settled(session)) done();
      });
      const timer = setTimeout(done, config().gateway.firstListWaitMs);
      timer.unref();
    });
  };
}
