/**
 * The one registry of agent sessions (G1, G6): each entry holds the session and everything
 * it owns (see {@link AgentSession}). It also counts subscriptions on shared connections,
 * so the upstream hears `subscribe` from the first holder and `unsubscribe` after the last.
 * @module
 */
import type { AgentSession, SubscribedResource } from './agent-session.js';
import { createResourceSubscriptions, type UpstreamAction } from './resource-subscriptions.js';

/** A session subscribed to an upstream URI, with the public URI it used. */
export type Subscriber = { readonly session: AgentSession; readonly publicUri: string };

/** The sessions of one service. */
export type SessionRegistry = {
  add(session: AgentSession): void;
  /**
   * Forget `session`; returns the shared subscriptions nobody holds any more (to drop
   * upstream), or null when it was not registered (already removed).
   */
  remove(session: AgentSession): SubscribedResource[] | null;
  get(id: string): AgentSession | undefined;
  all(): AgentSession[];
  /** Record a subscription; `shared`: counted against other sessions. Says what to tell the upstream. */
  subscribe(session: AgentSession, publicUri: string, route: SubscribedResource, shared: boolean): UpstreamAction;
  /** Drop a subscription; null when the session did not hold it. */
  unsubscribe(
    session: AgentSession,
    publicUri: string,
    shared: boolean,
  ): { route: SubscribedResource; action: UpstreamAction } | null;
  /** Who hears of an update to `uri` of `server`: `only`'s subscriptions, or every shared holder's. */
  subscribers(server: string, uri: string, only: AgentSession | null): Subscriber[];
  /** Upstream URIs of `server` that some session holds on its shared connection. */
  sharedUris(server: string): string[];
};

/** Create the registry: `main.ts` makes one and hands it to the gateway and the upstream peer. */
export function createSessionRegistry(): SessionRegistry {
  const sessions = new Map<string, AgentSession>();
  const counts = createResourceSubscriptions();
  const publicUris = (session: AgentSession, server: string, uri: string): Subscriber[] =>
    [...session.subscriptions]
      .filter(([, route]) => route.server === server && route.uri === uri)
      .map(([publicUri]) => ({ session, publicUri }));
  return {
    add(session) {
      sessions.set(session.id, session);
    },
    remove(session) {
      if (sessions.get(session.id) !== session) return null;
      sessions.delete(session.id);
      session.subscriptions.clear();
      return counts.removeSession(session.id);
    },
    get: (id) => sessions.get(id),
    all: () => [...sessions.values()],
    subscribe(session, publicUri, route, shared) {
      session.subscriptions.set(publicUri, route);
      // A session's own connection is its alone: always tell it.
      return shared ? counts.add(route.server, route.uri, session.id) : 'subscribe';
    },
    unsubscribe(session, publicUri, shared) {
      const route = session.subscriptions.get(publicUri);
      if (!route) return null;
      session.subscriptions.delete(publicUri);
      // Another public form of the same upstream URI still holds it for this session.
      const held = [...session.subscriptions.values()].some((r) => r.server === route.server && r.uri === route.uri);
      if (held) return { route, action: 'none' };
      return { route, action: shared ? counts.remove(route.server, route.uri, session.id) : 'unsubscribe' };
    },
    subscribers(server, uri, only) {
      if (only) return publicUris(only, server, uri);
      return counts.holders(server, uri).flatMap((id) => {
        const session = sessions.get(id);
        return session ? publicUris(session, server, uri) : [];
      });
    },
    sharedUris: (server) => counts.urisOf(server),
  };
}
