/**
 * The gateway (SPEC G1–G6): agent sessions over any SDK server transport, each with a
 * view of the supervised servers, relaying requests to their owners and the owners'
 * requests and notifications back, and telling each session when its lists change.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type LoggingLevel,
  RootsListChangedNotificationSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { ServerConfig } from '../config/schema.js';
import { UpstreamUnavailableError } from '../errors.js';
import type { Hub } from '../hub/create-hub.js';
import type { HubEvent } from '../hub/hub-event.js';
import type { AuditEntry } from '../storage/audit-writer.js';
import type { LiveUpstream, UpstreamPeer } from '../upstream/types.js';
import type { AggregatedView } from './aggregate.js';
import { startAudit } from './audit-request.js';
import { createCallTracker } from './call-tracker.js';
import { computeView, viewServers } from './compute-view.js';
import type { ViewSpec } from './effective-servers.js';
import { createGatewaySanitizer } from './gateway-sanitizer.js';
import type { GatewaySession, Naming } from './gateway-session.js';
import { createLossWatch } from './loss-watch.js';
import { notifyListChanges, VIEW_EVENTS } from './notify-list-changes.js';
import { toPublicName } from './public-names.js';
import { renewSubscriptions } from './renew-subscriptions.js';
import { createResourceSubscriptions } from './resource-subscriptions.js';
import type { SamplingBudget } from './sampling-budget.js';
import { sanitizeUpstreamText } from './sanitize-requests.js';
import { registerSessionHandlers } from './session-handlers.js';
import { createSessionUpstreams } from './session-upstreams.js';
import { createUpstreamPeer } from './upstream-peer.js';

/** Opens an upstream connection of the gateway's own (for `scope: "session"`). */
export type OpenSessionUpstream = (options: {
  serverId: string;
  config: ServerConfig;
  peer: UpstreamPeer;
}) => Promise<LiveUpstream>;

/** What the gateway needs. */
export type GatewayDeps = {
  hub: Hub;
  bus: EventBus<HubEvent>;
  log: Logger;
  openUpstream: OpenSessionUpstream;
  /** Rug-pull pins (X5): tools it hides are left out of every view. */
  pins?: { isHidden(server: string, tool: string): boolean };
  now?: () => number;
  /** Audit sink (X7). */
  audit?: { record(entry: AuditEntry): void };
  /** Sampling budgets (X6). */
  budget?: Pick<SamplingBudget, 'reserve'>;
};

/** The gateway. */
export type Gateway = {
  /** The peer for the hub's shared upstream connections. */
  readonly peer: UpstreamPeer;
  /** Start a session for `spec` on `transport`; resolves once connected. */
  openSession(options: {
    transport: Transport;
    spec: ViewSpec;
    label: string;
    onClose?: () => void;
    /** False for a session that lives as long as its process (stdio): never closed as idle. */
    idles?: boolean;
    /** Who opened it (audit): `admin`, a token id, `stdio`. */
    clientId?: string | null;
  }): Promise<GatewaySession>;
  sessions(): GatewaySession[];
  /** End every session a client (token id) opened: after its token is revoked. */
  closeSessionsOf(clientId: string): Promise<number>;
  /** End sessions idle for longer than `idleMs` (their own upstreams close with them). */
  closeIdle(idleMs: number): Promise<number>;
  close(): Promise<void>;
};

const SERVER_INFO = { name: 'boternity', version: '0.1.0' };
const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

/** Our capabilities, limited to the kinds the proxied upstream has (list changes are always ours to send). */
function mirrorCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
  const has = (kind: keyof ServerCapabilities) => upstream?.[kind] !== undefined;
  return {
    ...(has('tools') ? { tools: CAPABILITIES.tools } : {}),
    ...(has('resources')
      ? { resources: { listChanged: true, subscribe: upstream?.resources?.subscribe === true } }
      : {}),
    ...(has('prompts') ? { prompts: CAPABILITIES.prompts } : {}),
    ...(has('completions') ? { completions: {} } : {}),
    ...(has('logging') ? { logging: {} } : {}),
  };
}

/** Create the gateway. */
export function createGateway({
  hub,
  bus,
  log,
  openUpstream,
  pins,
  audit,
  budget,
  now = Date.now,
}: GatewayDeps): Gateway {
  const gatewayLog = log.child({ mod: 'gateway' });
  const tracker = createCallTracker();
  const sessions = new Map<string, GatewaySession>();
  // Views are rebuilt only after an event that can change them, not on every call.
  let generation = 0;
  const stopCounting = bus.subscribe(({ event }) => {
    if (VIEW_EVENTS.has(event.type)) generation += 1;
  });
  // A view depends only on what the session asked for, so sessions of one kind share it.
  const cached = new Map<string, { generation: number; view: AggregatedView }>();
  const view = (session: GatewaySession): AggregatedView => {
    const key = JSON.stringify(session.spec);
    const hit = cached.get(key);
    if (hit?.generation === generation) return hit.view;
    const fresh = computeView(hub, session, pins ? (server, tool) => pins.isHidden(server, tool) : undefined);
    cached.set(key, { generation, view: fresh });
    return fresh;
  };
  const routing = {
    sessionsViewing: (server: string) => [...sessions.values()].filter((s) => viewServers(hub, s).includes(server)),
    resourceUpdated(server: string, uri: string, fixed: GatewaySession | null) {
      for (const session of fixed ? [fixed] : sessions.values()) {
        const publicUri = view(session).publicUri(server, uri);
        if (!session.subscriptions.has(publicUri)) continue;
        void session.server.sendResourceUpdated({ uri: publicUri }).catch(() => undefined);
      }
    },
  };
  const peer = createUpstreamPeer({ tracker, routing, log: gatewayLog, budget, audit });
  const subscriptions = createResourceSubscriptions();
  const own = createSessionUpstreams({ tracker, routing, log: gatewayLog, openUpstream, budget, audit });

  const upstreamFor = async (session: GatewaySession, server: string, config: ServerConfig): Promise<LiveUpstream> => {
    if (config.scope === 'session') return own.get(session, server, config);
    const upstream = hub.upstream(server);
    if (upstream) return upstream;
    const status = hub.getServer(server);
    throw new UpstreamUnavailableError(server, status.state, status.attempt);
  };

  const losses = createLossWatch({ bus });
  const stopRenewing = renewSubscriptions({ hub, bus, subscriptions, log: gatewayLog });

  const deps = {
    log: gatewayLog,
    audit,
    sanitizer: createGatewaySanitizer({ log: gatewayLog, limits: () => hub.config().sanitize }),
    tracker,
    view,
    upstreamFor,
    whenLost: (server: string, upstream: LiveUpstream, shared: boolean) => losses.watch(server, upstream, shared),
    config: (server: string) => hub.config().mcpServers[server],
    subscriptionChange(session: GatewaySession, server: string, uri: string, change: 'add' | 'remove') {
      // A session's own connection is its alone: always tell it.
      if (hub.config().mcpServers[server]?.scope === 'session') return change === 'add' ? 'subscribe' : 'unsubscribe';
      return change === 'add'
        ? subscriptions.add(server, uri, session.id)
        : subscriptions.remove(server, uri, session.id);
    },
    unavailableOwner(session: GatewaySession, publicName: string) {
      const servers = viewServers(hub, session);
      const owner =
        session.naming === 'identity'
          ? servers[0]
          : servers.find((server) => publicName.startsWith(toPublicName(server, '')));
      if (!owner || hub.upstream(owner)) return null;
      const status = hub.getServer(owner);
      return new UpstreamUnavailableError(owner, status.state, status.attempt);
    },
    async setLevel(session: GatewaySession, level: string, extra: Parameters<typeof tracker.run>[0]['extra']) {
      await Promise.allSettled(
        viewServers(hub, session).map(async (server) => {
          const config = hub.config().mcpServers[server];
          const upstream = config && (config.scope === 'session' ? own.peek(session, server) : hub.upstream(server));
          if (!upstream?.client.getServerCapabilities()?.logging) return;
          await tracker.run({ key: server, session, extra }, () =>
            upstream.client.setLoggingLevel(level as LoggingLevel),
          );
        }),
      );
    },
  };

  const stopNotifying = notifyListChanges({ bus, sessions: () => sessions.values(), view, log: gatewayLog });

  return {
    peer,
    async openSession({ transport, spec, label, onClose, idles = true, clientId = null }) {
      const naming: Naming = spec.kind === 'server' ? 'identity' : 'prefixed';
      // One server's endpoint is a transparent proxy: it presents that server's name, version,
      // instructions and kinds of capability (as of when the session opens).
      const proxied = spec.kind === 'server' ? hub.upstream(spec.server)?.client : undefined;
      const raw = proxied?.getInstructions();
      const instructions = raw === undefined ? undefined : sanitizeUpstreamText(raw, 2_000);
      const server = new Server(proxied?.getServerVersion() ?? SERVER_INFO, {
        capabilities: proxied ? mirrorCapabilities(proxied.getServerCapabilities()) : CAPABILITIES,
        ...(instructions ? { instructions } : {}),
      });
      const session: GatewaySession = {
        id: randomUUID(),
        spec,
        naming,
        label,
        clientId,
        server,
        subscriptions: new Set(),
        ownUpstreams: new Map(),
        fingerprint: null,
        loggingLevel: null,
        lastActivity: now(),
        idles,
      };
      registerSessionHandlers(server, session, deps);
      // The agent's roots are its own: only its own upstream connections hear that they changed.
      server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
        await Promise.allSettled(own.openOf(session).map((upstream) => upstream.client.sendRootsListChanged()));
      });
      server.onclose = () => {
        startAudit(audit, session)({ eventType: 'session_end', input: { label }, success: true });
        sessions.delete(session.id);
        // Subscriptions nobody else holds are dropped upstream too.
        for (const { server: owner, uri } of subscriptions.removeSession(session.id)) {
          void hub
            .upstream(owner)
            ?.client.unsubscribeResource({ uri })
            .catch(() => undefined);
        }
        void own.closeAll(session);
        onClose?.();
        gatewayLog.info({ session: session.id, label }, 'agent session ended');
      };
      await server.connect(transport);
      sessions.set(session.id, session);
      startAudit(audit, session)({ eventType: 'session_start', input: { label, spec }, success: true });
      // Count activity on every message the agent sends, for idle sessions.
      const handle = transport.onmessage;
      transport.onmessage = (message, extra) => {
        session.lastActivity = now();
        handle?.(message, extra);
      };
      session.fingerprint = view(session).fingerprint;
      gatewayLog.info({ session: session.id, label }, 'agent session started');
      return session;
    },
    sessions: () => [...sessions.values()],
    async closeSessionsOf(clientId) {
      const owned = [...sessions.values()].filter((s) => s.clientId === clientId);
      await Promise.allSettled(owned.map((s) => s.server.close()));
      return owned.length;
    },
    async closeIdle(idleMs) {
      const idle = [...sessions.values()].filter((s) => s.idles && now() - s.lastActivity > idleMs);
      await Promise.allSettled(idle.map((s) => s.server.close()));
      return idle.length;
    },
    async close() {
      stopNotifying();
      stopCounting();
      stopRenewing();
      losses.stop();
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()));
      await own.closeEverything();
    },
  };
}
