/**
 * The gateway (SPEC G1–G6): agent sessions with a view of the supervised servers, and the
 * call path their requests take to the owning upstreams (one module per request kind,
 * sharing one {@link CallPath}). `main.ts` hands it the hub, the config, the call tracker
 * and the session registry, which the upstream peer shares.
 * @module
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { AnswerSampling, BotToolCaller } from '../bots/ports.js';
import type { EventBus } from '../bus/create-event-bus.js';
import type { AppConfig } from '../config/schema.js';
import { RequestEndedError, ShuttingDownError, UnknownBotError } from '../errors.js';
import type { HubEvent } from '../events/hub-event.js';
import { createSchemaValidator } from '../guard/schema-validator.js';
import type { Hub } from '../hub/create-hub.js';
import { createBotToolCaller, wireBots } from './bots/index.js';
import { linearRegex } from './linear-regex.js';
import type { InputFlows, ModernViewOptions } from './modern/index.js';
import { createInputFlows, type ModernView, serveModernView } from './modern/index.js';
import type { SamplingBudget, UndeliveredTally } from './peer/index.js';
import { createUpstreamPeer } from './peer/index.js';
import type { CallTracker } from './relay/call-tracker.js';
import { createCallAdmission, createLossWatch, renewSubscriptions, type ServerAdmission } from './relay/index.js';
import type { BotSurface, CallPath } from './requests/index.js';
import { createInProcessRequests, type InProcessRequests, searchView, type ViewSearch } from './requests/index.js';
import { createViewIndexes, searchListingKey } from './search/index.js';
import type { AuditSink } from './session/index.js';
import {
  type AgentSession,
  ANSWER_WITHIN_MS,
  admitFleetSession,
  admitSession,
  attachAgentSession,
  closeSessions,
  createServersSettled,
  createSessionUpstreams,
  endRequests,
  endSession,
  endSessions,
  type FleetSessionCount,
  type InProcessSessionOptions,
  lastActiveAt,
  type OpenSessionUpstream,
  openAgentSession,
  publishToolCalls,
  requestsSettled,
  type TransportSessionOptions,
} from './session/index.js';
import type { SessionRegistry } from './session/session-registry.js';
import type { ViewSpec } from './views/index.js';
import { configSecrets, createGatewaySanitizer, createViewCache, notifyListChanges } from './views/index.js';

/** What the gateway needs. */
export type GatewayDeps = {
  hub: Pick<Hub, 'upstream' | 'getServer'>;
  bus: EventBus<HubEvent>;
  log: Logger;
  config: () => AppConfig;
  /** Shared with the upstream peer of the hub's connections (attribution, G6). */
  tracker: CallTracker;
  /** Shared with the upstream peer (resource updates reach the sessions subscribed). */
  sessions: SessionRegistry;
  openUpstream: OpenSessionUpstream;
  /** Replicas on one PostgreSQL: the session caps count every replica's sessions (ADR 042). */
  fleet?: FleetSessionCount;
  /** Rug-pull pins (X5): tools it hides are left out of every view. */
  pins?: { isHidden(server: string, tool: string): boolean };
  now?: () => number;
  /** Audit sink (X7). */
  audit?: AuditSink;
  /** Counts the upstream notifications no agent receives (issue 17). */
  undelivered?: Pick<UndeliveredTally, 'count'>;
  /** Sampling budgets (X6). */
  budget?: Pick<SamplingBudget, 'reserve'>;
  /**
   * The bot tools and prompts to serve (G8), made from the gateway's own tool port for bots:
   * `main.ts` builds them with the bots' deps. Absent: no bot tools are served.
   */
  bots?: (caller: BotToolCaller) => BotSurface;
  /** Whether the registry has bot `slug` (a `/mcp/bots/{slug}` of a bot with no config entry). */
  botExists?: (slug: string) => Promise<boolean>;
  /** Answers sampling of `"sampling": "bot"` servers with the bot's provider (G6). */
  answerSampling?: AnswerSampling;
  /** Checks elicitation answers in every agent session (one bounded cache, not an Ajv per session); made here when absent. */
  schemaValidator?: jsonSchemaValidator;
  /** Keystore secrets handed out so far (masked in the log): never shown in the sanitizer's excerpts. */
  secrets?: ReadonlySet<string>;
  /** Traces on (issue 21): the tracer of every request's spans; absent: off. */
  tracer?: Tracer | null;
  /** Cluster mode with a cluster key: the input flows made valid on every replica (ADR 044). */
  fleetFlows?: (local: InputFlows) => InputFlows;
};

/** The gateway; its in-process requests (`callTool`, `readResource` …) serve sessions from `attachSession`. */
export type Gateway = InProcessRequests & {
  /** The bots' tool port: a bot's calls take its view's call path, audited under the bot (B4). */
  readonly botToolCaller: BotToolCaller;
  /** Start a session on an SDK transport; resolves once connected. Throws for an unknown server or bot. */
  openSession(options: TransportSessionOptions): Promise<AgentSession>;
  /**
   * Start a session with no transport, for callers inside the service (bots): requests
   * made with its contexts take the same path (view, pins, sanitizer, audit) as an agent's.
   */
  attachSession(options: InProcessSessionOptions): AgentSession;
  /** Throws when `spec` names a bot or server that does not exist (as opening a session would). */
  checkView(spec: ViewSpec): Promise<void>;
  /** Open the view session MCP 2026-07-28 requests of one endpoint, token and client share. Throws like `openSession`. */
  openModernView(options: ModernViewOptions): Promise<ModernView>;
  /** The live session with this id. */
  session(id: string): AgentSession | undefined;
  sessions(): AgentSession[];
  /** Requests in flight, waiting, waited and refused per server under the in-flight caps (ADR 022). */
  admission(): ServerAdmission[];
  /** The tools `spec`'s view lists now, sanitized (no first-list wait, not audited). */
  listTools(spec: ViewSpec): Tool[];
  /** `spec`'s tools ranked for `query` (issue 24), as `search_tools` ranks them; an Error for a bad `regex:`. */
  searchTools(spec: ViewSpec, query: string, limit: number): ViewSearch | Error;
  /** End every session a client (token id) opened: after its token is revoked. */
  closeSessionsOf(clientId: string): Promise<number>;
  /** End sessions idle for longer than `idleMs`, with no request in flight (their own upstreams close with them). */
  closeIdle(idleMs: number): Promise<number>;
  /**
   * Stop taking sessions and requests (`server shutting down`), give those in flight
   * `graceMs` to answer, then end the rest with that error; resolves once they have answered.
   */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
};

/** Create the gateway. */
export function createGateway({
  hub,
  bus,
  log,
  config,
  tracker,
  sessions,
  openUpstream,
  pins,
  fleet,
  audit: auditSink,
  undelivered,
  budget,
  bots: serveBots,
  botExists,
  answerSampling,
  schemaValidator = createSchemaValidator(),
  secrets,
  tracer = null,
  now = Date.now,
  fleetFlows = (local) => local,
}: GatewayDeps): Gateway {
  const gatewayLog = log.child({ mod: 'gateway' });
  // Every tool call is a `tool_call` event on the bus too (S5), published off the call's path.
  const audit = auditSink && publishToolCalls(auditSink, bus);
  let stopping = false;
  const sanitizer = createGatewaySanitizer({
    log: gatewayLog,
    limits: () => config().sanitize,
    secrets: () => [...(secrets ?? []), ...configSecrets(config())],
  });
  const views = createViewCache({ bus, config, hub, pins, sanitizer });
  const losses = createLossWatch({ bus });
  const upstreams = createSessionUpstreams({
    hub,
    tracker,
    log: gatewayLog,
    openUpstream,
    // A session's own connection answers to that session alone (G6).
    peerFor: (session) =>
      createUpstreamPeer({
        tracker,
        sessions,
        log: gatewayLog,
        fixed: session,
        budget,
        audit,
        undelivered,
        sampling: {
          route: (server) => config().mcpServers[server]?.sampling ?? 'auto',
          answer: answerSampling ?? null,
        },
      }),
  });
  // The bots' own sessions serve no bot tools, so the port runs on the path without them.
  const core: CallPath = {
    config,
    hub,
    views,
    toolSearch: createViewIndexes({ regex: linearRegex }),
    upstreams,
    tracker,
    admission: createCallAdmission({ limits: () => config().limits.inFlight }),
    losses,
    sanitizer,
    audit: audit ?? null,
    sessions,
    serversSettled: createServersSettled({ bus, hub, config }),
    stopping: () => stopping,
    log: gatewayLog,
    bots: null,
    activity: null,
    listings: new WeakMap(),
    schemaValidator,
    tracer,
  };
  const botToolCaller = createBotToolCaller({ path: core, now });
  const wiring = { core, serveBots, botToolCaller, bus, sessions, botExists, log: gatewayLog };
  const { path, stop: stopBots } = wireBots(wiring);
  const flows = fleetFlows(createInputFlows({ timeoutMs: () => config().gateway.inputRequestTimeoutMs }));
  const assertBot = async (spec: ViewSpec) => {
    // A bot lives in the config file, the registry, or both (ADR 012); in neither it is unknown.
    if (spec.kind === 'bot' && !Object.hasOwn(config().bots, spec.slug) && !(await botExists?.(spec.slug)))
      throw new UnknownBotError(spec.slug);
  };
  const stopNotifying = notifyListChanges({
    bus,
    sessions,
    views,
    log: gatewayLog,
    config,
    listingKey: searchListingKey,
  });
  const stopRenewing = renewSubscriptions({ hub, bus, sessions, log: gatewayLog });
  const admitting = { sessions, limits: () => config().gateway, log: gatewayLog, now };
  // A single service admits synchronously, as before; a fleet asks the database first.
  const admit = (owner: string | null): Promise<void> | null => {
    if (fleet) return admitFleetSession({ ...admitting, fleet }, owner);
    admitSession(admitting, owner);
    return null;
  };

  return {
    botToolCaller,
    async openSession(options) {
      if (stopping) throw new ShuttingDownError();
      await assertBot(options.spec);
      // Over a cap, the opener's oldest idle session makes room, or this one is refused (X8).
      // A sealed session rebuilt here was admitted where it opened (ADR 039): it is no new session.
      return openAgentSession({ path, now }, options, () => (options.restored ? null : admit(options.owner ?? null)));
    },
    checkView: assertBot,
    async openModernView(options) {
      if (stopping) throw new ShuttingDownError();
      await assertBot(options.spec);
      // A view session is capped like any session: a new client name cannot escape the token's cap (X8).
      await admit(options.owner);
      return serveModernView({ path, now, flows }, options);
    },
    attachSession: (options) => attachAgentSession({ path, now }, options),
    session: (id) => sessions.get(id),
    sessions: () => sessions.all(),
    admission: () => core.admission.stats(),
    ...createInProcessRequests(path),
    listTools: (spec) => views.view(spec).tools(),
    searchTools: (spec, query, limit) => searchView(path, spec, query, limit),
    closeSessionsOf: (clientId) =>
      endSessions(
        sessions.all().filter((s) => s.clientId === clientId),
        () => new RequestEndedError('token revoked'),
      ),
    closeIdle: (idleMs) =>
      closeSessions(
        sessions.all().filter((s) => s.idles && s.requests.size === 0 && now() - lastActiveAt(s, now()) > idleMs),
      ),
    async drain(graceMs) {
      stopping = true;
      // Modern calls waiting for an input_required retry get none: they end now.
      const waiting = flows.stop(new ShuttingDownError());
      if (waiting > 0) gatewayLog.info({ waiting }, 'ended modern calls waiting for input: server shutting down');
      const open = sessions.all();
      const inFlight = open.reduce((n, s) => n + s.requests.size, 0);
      if (inFlight === 0) return;
      gatewayLog.info({ inFlight, graceMs }, 'waiting for agent requests in flight');
      if (await requestsSettled(open, graceMs)) return;
      const cut = open.filter((s) => s.requests.size > 0);
      gatewayLog.warn({ sessions: cut.length }, 'ending agent requests still in flight: server shutting down');
      for (const session of cut) endRequests(session, new ShuttingDownError());
      await requestsSettled(cut, ANSWER_WITHIN_MS);
      await new Promise((resolve) => setImmediate(resolve));
    },
    async close() {
      flows.close();
      stopBots();
      stopNotifying();
      stopRenewing();
      views.stop();
      losses.stop();
      await closeSessions(sessions.all());
      // A session whose transport would not close still lets go of what it owns.
      await Promise.allSettled(sessions.all().map((s) => endSession(path, s)));
    },
  };
}
