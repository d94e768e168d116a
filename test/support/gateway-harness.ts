/**
 * The gateway in-process for tests: a real hub whose connections are real SDK clients
 * talking to in-process `McpServer`s over `InMemoryTransport` pairs, the real call tracker,
 * session registry and upstream peer, and agents as SDK clients over in-memory transports.
 * No child process, no socket.
 * @module
 */
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createEventBus, type EventBus } from '../../src/bus/create-event-bus.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { AppConfig } from '../../src/config/schema.js';
import type { HubEvent } from '../../src/events/hub-event.js';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js';
import type { SamplingBudget } from '../../src/gateway/peer/sampling-budget.js';
import { createUndeliveredTally } from '../../src/gateway/peer/undelivered-tally.js';
import { createUpstreamPeer } from '../../src/gateway/peer/upstream-peer.js';
import { createCallTracker } from '../../src/gateway/relay/call-tracker.js';
import type { AgentSession } from '../../src/gateway/session/agent-session.js';
import { createSessionRegistry } from '../../src/gateway/session/session-registry.js';
import type { ViewSpec } from '../../src/gateway/views/effective-servers.js';
import { createHub, type Hub } from '../../src/hub/create-hub.js';
import type { AuditEntry } from '../../src/storage/audit-writer.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { raceSignal } from '../../src/upstream/race-signal.js';
import { NO_STDERR, type OpenSessionOptions, once, type Session, trackClose } from '../../src/upstream/session.js';
import { testLogger } from './fixtures.js';

/** One upstream of the harness. */
export type HarnessServer = {
  /** Builds the upstream for each connection attempt; throw to fail the attempt, wait to hold it. */
  make: () => McpServer | Promise<McpServer>;
  /** More keys of its config entry (`scope`, `requestTimeoutMs`, `allowedTools`…). */
  entry?: Record<string, unknown>;
  /** One stream for everything, like stdio: no request's context reaches boternity. */
  singleStream?: boolean;
};

/** Options of {@link startGateway}. */
export type HarnessOptions = {
  servers: Record<string, HarnessServer>;
  /** The rest of the config file (`bots`, `gateway`, `pins`, `sanitize`…). */
  config?: Record<string, unknown>;
  pins?: { isHidden(server: string, tool: string): boolean };
  budget?: Pick<SamplingBudget, 'reserve'>;
  /** Wait until every server has connected (default true). */
  connected?: boolean;
  /** The logger of the hub and the gateway (default: the silent test logger). */
  log?: Logger;
  /** Keystore secrets handed out, as `main.ts` keeps them (never shown in the sanitizer's excerpts). */
  secrets?: ReadonlySet<string>;
  /** Traces on (issue 21): the gateway's and the connections' tracer. */
  tracer?: Tracer;
};

/** An agent: an SDK client on a gateway session. */
export type Agent = { client: Client; session: AgentSession };

const quiet = testLogger();

/** Entries every harness server gets: quick reconnects, no health pings during a test. */
const QUIET = { command: 'in-process', healthIntervalMs: 600_000, backoff: { baseMs: 20, capMs: 100, jitter: 0 } };

/** Build the config the harness runs, through the real parser. */
export function harnessConfig(servers: HarnessOptions['servers'], rest: Record<string, unknown> = {}): AppConfig {
  const mcpServers = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { ...QUIET, ...s.entry }]));
  return parseConfig({ ...rest, mcpServers }, null);
}

/** Open an in-memory session to a server `make` builds. */
export async function inMemorySession(
  options: OpenSessionOptions,
  server: HarnessServer,
  opened: (upstream: McpServer) => void,
): Promise<Session> {
  const upstream = await raceSignal(Promise.resolve(server.make()), options.requestOptions.signal);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // Servers that keep per-session state (server-everything) key it by the transport's session id.
  serverSide.sessionId = randomUUID();
  if (server.singleStream) {
    // Everything the upstream sends is delivered in one context made here, outside any call,
    // as a stdio reader would: boternity cannot tell which call a request belongs to.
    const stream = new AsyncResource('fixture-stream');
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, sendOptions) => stream.runInAsyncScope(send, null, message, sendOptions);
  }
  await upstream.connect(serverSide);
  const client = options.newClient();
  let phase: 'connecting' | 'live' | 'closing' = 'connecting';
  const closed = trackClose(client, {
    phase: () => phase,
    log: options.log,
    unexpected: (error) => error ?? new Error('fixture server went away'),
  });
  try {
    await client.connect(clientSide, options.requestOptions);
  } catch (error) {
    await upstream.close();
    throw error;
  }
  phase = 'live';
  opened(upstream);
  const close = once(async () => {
    phase = 'closing';
    await client.close();
    await upstream.close();
  });
  // Without one stream for everything, each request's context reaches boternity, as over HTTP.
  return { client, transport: server.singleStream ? 'stdio' : 'http', pid: null, stderr: NO_STDERR, closed, close };
}

/** Start a gateway over `servers`. */
export async function startGateway({
  servers,
  config: rest = {},
  pins,
  budget,
  connected = true,
  log = quiet,
  secrets,
  tracer,
}: HarnessOptions) {
  const bus: EventBus<HubEvent> = createEventBus<HubEvent>();
  const events: HubEvent[] = [];
  bus.subscribe(({ event }) => {
    events.push(event);
  });
  const audit: AuditEntry[] = [];
  // The rows committed (durable before the answer) besides all rows, in order.
  const committed: AuditEntry[] = [];
  const sink = {
    record: (entry: AuditEntry) => void audit.push(entry),
    commit: (entry: AuditEntry) => {
      audit.push(entry);
      committed.push(entry);
    },
  };
  let inForce = harnessConfig(servers, rest);
  const config = () => inForce;
  const live = new Map<string, McpServer>();
  const tracker = createCallTracker();
  const sessions = createSessionRegistry();
  // Notifications no agent receives are counted in windows short enough for a test to see.
  const undelivered = createUndeliveredTally({ audit: sink, windowMs: () => 50 });
  const peer = createUpstreamPeer({ tracker, sessions, log, audit: sink, undelivered, ...(budget ? { budget } : {}) });
  const open = (serverId: string, peerOf: typeof peer, signal?: AbortSignal) => {
    const server = servers[serverId];
    if (!server) throw new Error(`no harness server ${serverId}`);
    const own = config().mcpServers[serverId];
    if (!own) throw new Error(`${serverId} is not configured`);
    return connectUpstream({
      serverId,
      config: own,
      log,
      peer: peerOf,
      signal,
      tracer: tracer ?? null,
      openSession: (options) => inMemorySession(options, server, (upstream) => live.set(serverId, upstream)),
    });
  };
  const hub: Hub = createHub({
    log,
    bus,
    config: {
      get: config,
      set: (next) => {
        inForce = next;
      },
    },
    open: ({ serverId, signal }) => open(serverId, peer, signal),
  });
  const gateway: Gateway = createGateway({
    hub,
    bus,
    log,
    config,
    tracker,
    sessions,
    audit: sink,
    undelivered,
    ...(pins ? { pins } : {}),
    ...(budget ? { budget } : {}),
    ...(secrets ? { secrets } : {}),
    ...(tracer ? { tracer } : {}),
    openUpstream: ({ serverId, peer: own }) => open(serverId, own),
  });
  hub.applyConfig(inForce);

  /** Resolves once `check` holds: checked now and after every bus event. */
  const until = (check: () => boolean, what: string, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const stop = bus.subscribe(() => {
        if (!check()) return;
        stop();
        clearTimeout(timer);
        resolve();
      });
    });
  const stateOf = (name: string) => {
    try {
      return hub.getServer(name).state;
    } catch {
      return null;
    }
  };
  const inState = (name: string, state: string) => until(() => stateOf(name) === state, `${name} ${state}`);
  if (connected) await Promise.all(Object.keys(servers).map((name) => inState(name, 'connected')));
  const agents: Client[] = [];

  return {
    bus,
    hub,
    gateway,
    config,
    audit,
    committed,
    events,
    until,
    inState,
    /** The upstream instance of `name` connected last. */
    upstream: (name: string) => live.get(name),
    /** End `name`'s current connection from the upstream's side, as a crash would. */
    async drop(name: string) {
      await live.get(name)?.close();
    },
    /** Put a changed config in force, as a hot reload does. */
    reload(changes: { servers?: HarnessOptions['servers']; config?: Record<string, unknown> }) {
      Object.assign(servers, changes.servers ?? {});
      hub.applyConfig(harnessConfig(servers, changes.config ?? rest), { file: 'harness' });
    },
    /** An SDK client on a new session of `spec`. */
    async agent(spec: ViewSpec = { kind: 'all' }, options: ClientOptions = {}, clientId = 'test'): Promise<Agent> {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const session = await gateway.openSession({ transport: serverSide, spec, label: 'test', clientId });
      const client = new Client({ name: 'test-agent', version: '1.0.0' }, options);
      await client.connect(clientSide);
      agents.push(client);
      return { client, session };
    },
    async stop() {
      await Promise.allSettled(agents.map((a) => a.close()));
      await gateway.close();
      await hub.stop();
    },
  };
}

/** A started harness. */
export type GatewayHarness = Awaited<ReturnType<typeof startGateway>>;

/**
 * A harness and one agent on the `all` view, started before the tests of the enclosing
 * `describe` and stopped after them; read its fields inside the tests.
 */
export function useGateway(options: HarnessOptions): { readonly gw: GatewayHarness; readonly agent: Client } {
  const ready = {} as { gw: GatewayHarness; agent: Client };
  beforeAll(async () => {
    ready.gw = await startGateway(options);
    ready.agent = (await ready.gw.agent()).client;
  });
  afterAll(() => ready.gw?.stop());
  return ready;
}
