/**
 * Resource subscriptions of many agent sessions over one shared upstream connection
 * (SPEC G6): the upstream is subscribed when the first session subscribes to a URI and
 * unsubscribed when the last one leaves, so one agent cannot cancel another's updates.
 * @module
 */

/** What to do upstream after a session's change, if anything. */
export type UpstreamAction = 'subscribe' | 'unsubscribe' | 'none';

/** Reference counts of (server, upstream URI) by session. */
export function createResourceSubscriptions() {
  const holders = new Map<string, Set<string>>();
  const key = (server: string, uri: string) => `${server}\u0000${uri}`;
  return {
    /** Record `session` subscribing; `subscribe` when it is the first. */
    add(server: string, uri: string, session: string): UpstreamAction {
      const k = key(server, uri);
      const set = holders.get(k) ?? new Set<string>();
      holders.set(k, set);
      const first = set.size === 0;
      set.add(session);
      return first ? 'subscribe' : 'none';
    },
    /** Record `session` leaving; `unsubscribe` when it was the last. */
    remove(server: string, uri: string, session: string): UpstreamAction {
      const k = key(server, uri);
      const set = holders.get(k);
      if (!set?.delete(session)) return 'none';
      if (set.size > 0) return 'none';
      holders.delete(k);
      return 'unsubscribe';
    },
    /** Ids of the sessions holding (server, uri). */
    holders(server: string, uri: string): string[] {
      return [...(holders.get(key(server, uri)) ?? [])];
    },
    /** Upstream URIs of `server` that some session holds (to renew after a reconnect). */
    urisOf(server: string): string[] {
      return [...holders.keys()].filter((k) => k.startsWith(`${server}\u0000`)).map((k) => k.slice(server.length + 1));
    },
    /** Drop every subscription of `session`; returns the (server, uri) pairs nobody holds any more. */
    removeSession(session: string): { server: string; uri: string }[] {
      const released: { server: string; uri: string }[] = [];
      for (const [k, set] of holders) {
        if (!set.delete(session) || set.size > 0) continue;
        holders.delete(k);
        const [server = '', uri = ''] = k.split('\u0000');
        released.push({ server, uri });
      }
      return released;
    },
  };
}
