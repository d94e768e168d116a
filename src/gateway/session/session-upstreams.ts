/**
 * Which upstream connection serves a session's request (G4, G6): the hub's shared one, or,
 * for a `scope: "session"` server, the session's own: opened on its first request, bound to
 * that session for attribution, reopened after it ends, and closed with the session.
 * @module
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../../config/schema.js';
import { SessionUpstreamError, UpstreamUnavailableError } from '../../errors.js';
import type { Hub } from '../../hub/create-hub.js';
import type { OwnedUpstream, UpstreamPeer, UpstreamSession } from '../../upstream/types.js';
import type { CallTracker } from '../relay/call-tracker.js';
import type { AgentSession } from './agent-session.js';

/** Opens an upstream connection of the gateway's own (for `scope: "session"`). */
export type OpenSessionUpstream = (options: {
  serverId: string;
  config: ServerConfig;
  peer: UpstreamPeer;
}) => Promise<OwnedUpstream>;

/** The connections that serve agent sessions. */
export type SessionUpstreams = {
  /** The connection for `server` in `session`; throws the error that says why there is none. */
  connectionFor(session: AgentSession, server: string, config: ServerConfig): Promise<UpstreamSession>;
  /** The session's open connection to `server`, if any. */
  peek(session: AgentSession, server: string): UpstreamSession | null;
  /** The session's open connections. */
  openOf(session: AgentSession): UpstreamSession[];
  /** Close the session's own connections. */
  closeAll(session: AgentSession): Promise<void>;
};

/** Create the lender. */
export function createSessionUpstreams({
  hub,
  tracker,
  log,
  openUpstream,
  peerFor,
}: {
  hub: Pick<Hub, 'upstream' | 'getServer'>;
  tracker: CallTracker;
  log: Logger;
  openUpstream: OpenSessionUpstream;
  /** The peer of a connection bound to `session`. */
  peerFor(session: AgentSession): UpstreamPeer;
}): SessionUpstreams {
  const resolved = new WeakMap<Promise<OwnedUpstream>, OwnedUpstream>();
  // Sessions whose connections were closed: a request that races the end opens none for them
  // (it would be stored where nobody closes it: a child process left running).
  const ended = new WeakSet<AgentSession>();

  const open = (session: AgentSession, server: string, config: ServerConfig): Promise<OwnedUpstream> => {
    // Opened outside the calling request's context: the connection outlives the call.
    const opening = tracker.outside(() => openUpstream({ serverId: server, config, peer: peerFor(session) }));
    session.ownUpstreams.set(server, opening);
    const forget = () => {
      if (session.ownUpstreams.get(server) === opening) session.ownUpstreams.delete(server);
    };
    opening.then((upstream) => {
      resolved.set(opening, upstream);
      void upstream.closed.then(forget);
      log.info({ server, session: session.id, pid: upstream.pid }, 'session upstream opened');
      // The level the agent chose earlier applies to its new connection too.
      if (session.loggingLevel && upstream.capabilities()?.logging) {
        void upstream.setLoggingLevel(session.loggingLevel).catch(() => undefined);
      }
    }, forget);
    return opening;
  };

  return {
    async connectionFor(session, server, config) {
      if (config.scope !== 'session') {
        const upstream = hub.upstream(server);
        if (upstream) return upstream;
        const status = hub.getServer(server);
        throw new UpstreamUnavailableError(server, status.state, status.attempt);
      }
      if (ended.has(session)) throw new SessionUpstreamError(server, { cause: new Error('the session has ended') });
      try {
        return await (session.ownUpstreams.get(server) ?? open(session, server, config));
      } catch (error) {
        throw new SessionUpstreamError(server, { cause: error });
      }
    },
    peek(session, server) {
      const opening = session.ownUpstreams.get(server);
      return (opening && resolved.get(opening)) ?? null;
    },
    openOf: (session) => [...session.ownUpstreams.values()].flatMap((o) => resolved.get(o) ?? []),
    async closeAll(session) {
      ended.add(session);
      const openings = [...session.ownUpstreams.values()];
      session.ownUpstreams.clear();
      await Promise.allSettled(openings.map(async (o) => (await o).close()));
    },
  };
}
