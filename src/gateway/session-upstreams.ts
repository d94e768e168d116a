/**
 * Upstream connections owned by one agent session (`scope: "session"`, SPEC G6): opened
 * on the session's first call to that server, bound to that session for attribution,
 * reopened after they end, and closed with the session.
 * @module
 */
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/schema.js';
import { HubError } from '../errors.js';
import type { AuditEntry } from '../storage/audit-writer.js';
import type { LiveUpstream } from '../upstream/types.js';
import type { CallTracker } from './call-tracker.js';
import type { OpenSessionUpstream } from './create-gateway.js';
import type { GatewaySession } from './gateway-session.js';
import type { SamplingBudget } from './sampling-budget.js';
import { createUpstreamPeer, type PeerRouting } from './upstream-peer.js';

/** Create the registry of session-owned upstreams. */
export function createSessionUpstreams({
  tracker,
  routing,
  log,
  openUpstream,
  budget,
  audit,
}: {
  tracker: CallTracker;
  routing: PeerRouting;
  log: Logger;
  openUpstream: OpenSessionUpstream;
  budget?: Pick<SamplingBudget, 'reserve'> | undefined;
  audit?: { record(entry: AuditEntry): void } | undefined;
}) {
  const resolved = new Map<Promise<LiveUpstream>, LiveUpstream>();
  const everyone = new Set<GatewaySession>();

  const open = (session: GatewaySession, server: string, config: ServerConfig): Promise<LiveUpstream> => {
    const peer = createUpstreamPeer({ tracker, routing, log, fixed: session, budget, audit });
    // Opened outside the calling request's context: the connection outlives the call.
    const opening = tracker.outside(() => openUpstream({ serverId: server, config, peer }));
    session.ownUpstreams.set(server, opening);
    everyone.add(session);
    opening.then(
      (upstream) => {
        resolved.set(opening, upstream);
        void upstream.closed.then(() => {
          resolved.delete(opening);
          if (session.ownUpstreams.get(server) === opening) session.ownUpstreams.delete(server);
        });
        log.info({ server, session: session.id, pid: upstream.pid }, 'session upstream opened');
        // The level the agent chose earlier applies to its new connection too.
        if (session.loggingLevel && upstream.client.getServerCapabilities()?.logging) {
          void upstream.client.setLoggingLevel(session.loggingLevel as LoggingLevel).catch(() => undefined);
        }
      },
      () => {
        if (session.ownUpstreams.get(server) === opening) session.ownUpstreams.delete(server);
      },
    );
    return opening;
  };

  return {
    async get(session: GatewaySession, server: string, config: ServerConfig): Promise<LiveUpstream> {
      const opening = session.ownUpstreams.get(server) ?? open(session, server, config);
      try {
        return await opening;
      } catch (error) {
        throw new HubError(
          'upstream_failed',
          `server "${server}" could not be opened for this session: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
    },
    /** The session's open connections. */
    openOf(session: GatewaySession): LiveUpstream[] {
      return [...session.ownUpstreams.values()].flatMap((o) => resolved.get(o) ?? []);
    },
    /** The session's open connection to `server`, if any. */
    peek(session: GatewaySession, server: string): LiveUpstream | null {
      const opening = session.ownUpstreams.get(server);
      return (opening && resolved.get(opening)) ?? null;
    },
    async closeAll(session: GatewaySession): Promise<void> {
      const openings = [...session.ownUpstreams.values()];
      session.ownUpstreams.clear();
      everyone.delete(session);
      await Promise.allSettled(openings.map(async (o) => (await o).close()));
    },
    async closeEverything(): Promise<void> {
      await Promise.allSettled([...everyone].map((s) => this.closeAll(s)));
    },
  };
}
