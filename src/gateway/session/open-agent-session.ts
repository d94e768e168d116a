/**
 * Opening and ending agent sessions (G1): over an SDK transport (Streamable HTTP, stdio),
 * each with its own SDK `Server`; or in-process, for callers inside the service. Either
 * way the session is registered with everything it owns, and audited when it starts and ends.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { BotToolsAccess } from '../../bots/ports.js';
import { RequestEndedError } from '../../errors.js';
import type { CallPath } from '../requests/index.js';
import { effectiveServers, namingOf, type ViewSpec } from '../views/index.js';
import type { AgentChannel, AgentSession } from './agent-session.js';
import { auditRow, clientNameOf } from './audit-request.js';
import { countActivity } from './count-activity.js';
import { endpointIdentity } from './endpoint-identity.js';
import { endpointInstructions, reachedBots } from './endpoint-instructions.js';
import { serverChannel } from './sdk-channel.js';
import { serveSession } from './serve-session.js';
import { endRequests } from './track-request.js';

/** Who opens a session, and for which view. */
export type SessionOptions = {
  spec: ViewSpec;
  /** Where it came in, for logs: `/mcp`, `stdio`, `bot:x`. */
  label: string;
  /** Who opened it (audit): `admin`, a token id, `stdio`. */
  clientId?: string | null;
  /** Serve the bot tools and skill prompts to this caller (G8); absent: none (a server's endpoint, a bot's own calls). */
  botAccess?: BotToolsAccess | null;
  /** The client's name and version, when known before the first request (MCP 2026-07-28 `_meta`): audited. */
  clientInfo?: { name: string; version: string } | null;
  /** The bot's own session (its chat and workflows call through it): no agent is behind it. */
  ownBot?: boolean;
};

/**
 * A session over an SDK transport. The opener (the HTTP endpoint, the stdio bridge) makes the
 * transport and keeps it; the gateway serves the session on it and never hands it back.
 */
export type TransportSessionOptions = SessionOptions & {
  transport: Transport;
  /** Its id (default: a new UUID); over HTTP, the `Mcp-Session-Id` the transport hands out. */
  id?: string;
  /** Who may reach it by id (an HTTP opener's key). */
  owner?: string | null;
  /** False for a session that lives as long as its process (stdio): never closed as idle. */
  idles?: boolean;
  /**
   * A session the fleet admitted when it opened, rebuilt here from its sealed id (ADR 039):
   * not counted again against the caps, which count it already (its row in `fleet_sessions`).
   */
  restored?: boolean;
  onClose?: () => void;
};

/** A session inside the service: its caller brings the channel an upstream's requests go to. */
export type InProcessSessionOptions = SessionOptions & { channel: AgentChannel };

/** What opening needs besides the options. */
export type OpenDeps = { path: CallPath; now: () => number };

/** A registered session record; `close` ends it. */
export function registerSession(
  { path, now }: OpenDeps,
  options: SessionOptions & {
    id: string;
    owner: string | null;
    idles: boolean;
    /** Whether something open keeps it active (a modern view's listen stream). */
    activeNow?: () => boolean;
  },
  channel: AgentChannel,
  close: (session: AgentSession) => Promise<void>,
): AgentSession {
  const { spec } = options;
  // A server or bot that is not configured is refused before anything exists.
  effectiveServers(path.config(), spec);
  const session: AgentSession = {
    id: options.id,
    spec,
    naming: namingOf(spec),
    label: options.label,
    clientId: options.clientId ?? null,
    clientName: clientNameOf(options.clientInfo),
    bot: spec.kind === 'bot' ? spec.slug : null,
    ownBot: options.ownBot === true && spec.kind === 'bot',
    botAccess: options.botAccess ?? null,
    owner: options.owner,
    channel,
    subscriptions: new Map(),
    ownUpstreams: new Map(),
    requests: new Set(),
    fingerprint: null,
    loggingLevel: null,
    lastActivity: now(),
    activeNow: options.activeNow ?? null,
    firstList: null,
    idles: options.idles,
    close: () => close(session),
  };
  // Everything that can throw runs before the session is registered: one registered and then
  // abandoned could never be closed and would count toward the session caps for ever.
  session.fingerprint = path.views.view(spec).view.fingerprint;
  path.sessions.add(session);
  path.audit?.record(
    auditRow('server', session, null, {
      eventType: 'session_start',
      input: { label: options.label, spec, ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}) },
    }),
  );
  path.log.info(
    { session: session.id, label: options.label, ...(options.clientInfo ? { client: options.clientInfo } : {}) },
    'agent session started',
  );
  return session;
}

/** Forget `session` and release what it owned; once. */
export async function endSession(path: CallPath, session: AgentSession): Promise<void> {
  const released = path.sessions.remove(session);
  if (released === null) return;
  // What it still has in flight upstream is cancelled there: nobody is left to answer.
  endRequests(session, new RequestEndedError('session closed'));
  path.audit?.record(auditRow('server', session, null, { eventType: 'session_end', input: { label: session.label } }));
  // Subscriptions nobody else holds are dropped upstream too.
  for (const { server, uri } of released) {
    void path.hub
      .upstream(server)
      ?.unsubscribe(uri)
      .catch(() => undefined);
  }
  path.log.info({ session: session.id, label: session.label }, 'agent session ended');
  await path.upstreams.closeAll(session);
}

/**
 * Start a session on `transport`; resolves once connected. `admit` (the caps, X8) runs after
 * the last wait before the session is registered, so that opens in a burst are each counted
 * against the sessions the others registered.
 */
export async function openAgentSession(
  deps: OpenDeps,
  options: TransportSessionOptions,
  admit: () => Promise<void> | null = () => null,
): Promise<AgentSession> {
  const { path, now } = deps;
  // One server's endpoint is a transparent proxy: it presents that server's name, version,
  // instructions and kinds of capability (as of when the session opens).
  // Elsewhere, instructions that sum up what the endpoint serves, as of now.
  const identity = endpointIdentity(path, options.spec);
  const { serverInfo, capabilities } = identity;
  const instructions =
    identity.instructions ?? endpointInstructions(path, options.spec, await reachedBots(path, options.botAccess));
  const admitted = admit();
  if (admitted) await admitted;
  const server = new Server(serverInfo, {
    capabilities,
    ...(instructions ? { instructions } : {}),
    jsonSchemaValidator: path.schemaValidator,
  });
  const session = registerSession(
    deps,
    { ...options, id: options.id ?? randomUUID(), owner: options.owner ?? null, idles: options.idles ?? true },
    serverChannel(server),
    () => server.close(),
  );
  serveSession(server, session, path, capabilities);
  // Every row after the handshake names the client as its `initialize` did (stdio learns it only here).
  server.oninitialized = () => {
    session.clientName = clientNameOf(server.getClientVersion()) ?? session.clientName;
  };
  server.onclose = () => {
    void endSession(path, session);
    options.onClose?.();
  };
  try {
    // Every message the agent sends counts as activity, for idle sessions.
    await server.connect(
      countActivity(options.transport, () => {
        session.lastActivity = now();
      }),
    );
  } catch (error) {
    await endSession(path, session);
    throw error;
  }
  return session;
}

/** Start a session with no transport; its requests take the same call path as any other. */
export function attachAgentSession(deps: OpenDeps, options: InProcessSessionOptions): AgentSession {
  return registerSession(
    deps,
    { ...options, id: randomUUID(), owner: null, idles: false },
    options.channel,
    (session) => endSession(deps.path, session),
  );
}
