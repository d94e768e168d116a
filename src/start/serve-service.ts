/**
 * The rest of start-up, once the upstreams are starting and the database is open (issue 8):
 * rug-pull pins, the gateway and the bots on it, the connection mirror, metrics, the config
 * applier, writer and watcher, the web UI's parts, and the HTTP side. Each step that must be
 * undone is pushed on `undo`, in order.
 * @module
 */
import type { Logger } from 'pino';
import type { BotDeps } from '../bots/bot-deps.js';
import { createBotSurface } from '../bots/create-bot-surface.js';
import { reportBotSources } from '../bots/report-bot-sources.js';
import type { EventBus } from '../bus/create-event-bus.js';
import { replayFromStart } from '../bus/replay-from-start.js';
import { DATABASE_CONFIG, readCluster } from '../cluster/index.js';
import { createConfigWriter } from '../config/config-writer.js';
import type { ParsedConfig } from '../config/parse-config.js';
import type { AppConfig } from '../config/schema.js';
import { watchConfig } from '../config/watch-config.js';
import type { HubEvent } from '../events/hub-event.js';
import { createGateway, createServersSettled, type Gateway, sweepIdleSessions } from '../gateway/index.js';
import type { CallTracker } from '../gateway/relay/call-tracker.js';
import type { SessionRegistry } from '../gateway/session/session-registry.js';
import type { VerifyToken } from '../guard/caller.js';
import type { HttpServer } from '../http/index.js';
import { createSseBufferPool, createSseWriteGuard } from '../http/io/index.js';
import { createWebUi, type WebUi } from '../http/web-ui/create-web-ui.js';
import { createConfigApplier } from '../hub/apply-config-change.js';
import type { Hub } from '../hub/create-hub.js';
import { persistConnections } from '../hub/persist-connections.js';
import { createMetrics } from '../metrics/create-metrics.js';
import type { OAuth } from '../oauth/index.js';
import { createPinGuard } from '../pins/index.js';
import { auditBusEvents, startAuditRetention } from '../storage/audit-retention.js';
import { createLifecycleAudit, LIFECYCLE_EVENT_TYPES } from '../storage/audit-server-lifecycle.js';
import { findBotBySlug } from '../storage/bot-repo.js';
import type { Keystore } from '../storage/keystore.js';
import type { Tracing } from '../telemetry/start-tracing.js';
import { connectUpstream } from '../upstream/connect-upstream.js';
import type { CallParts } from './open-call-parts.js';
import { openCluster, replicaAddress } from './open-cluster.js';
import { openModernFleet } from './open-modern-fleet.js';
import { openSealing } from './open-sealing.js';
import type { Storage } from './open-storage.js';

/** What the first part of start-up made. */
export type Started = {
  env: NodeJS.ProcessEnv;
  log: Logger;
  secrets: Set<string>;
  configPath: string;
  /** The config file as loaded at start (its text seeds an empty database in cluster mode). */
  loaded: ParsedConfig & { readonly text: string };
  config: () => AppConfig;
  bus: EventBus<HubEvent>;
  hub: Hub;
  tracker: CallTracker;
  sessions: SessionRegistry;
  http: HttpServer | null;
  host: string;
  adminToken: string;
  /** The home's keystore: `POST /api/servers/import` moves secrets there; `/api/credentials` edits it. */
  keystore: Pick<Keystore, 'set' | 'remove' | 'names'>;
  verifyToken: VerifyToken | undefined;
  /** OAuth to upstreams (issue 23), loaded at its first use. */
  oauth?: OAuth | undefined;
  /** The options every upstream connection is opened with (logger, ledger, limits, credentials). */
  upstreamOptions: () => Omit<Parameters<typeof connectUpstream>[0], 'serverId' | 'config' | 'peer'>;
  undo: (() => Promise<unknown> | unknown)[];
  /** Traces (issue 21): the tracer and the dropped spans' count; null: off. */
  tracing: Tracing | null;
};

/** Build and serve the rest; resolves once the HTTP side answers. */
export async function serveService(
  started: Started,
  { store, replica }: Storage,
  { audit, undelivered, budget, botBase, sampling, tokens }: CallParts,
): Promise<{ gateway: Gateway; webUi: WebUi }> {
  const { env, log, bus, hub, config, configPath, http, undo } = started;
  // The fleet first (ADR 041): the run-once jobs below ask it whether this replica leads them.
  const cluster = await openCluster({ store, replica, hub, bus, log, config, address: replicaAddress(http) });
  undo.push(() => cluster.stop());
  // One path applies a new config, whether the watcher read it, the API wrote it or another replica did (C3, C4).
  const applier = createConfigApplier({ hub, bus, log, configPath: store.postgres ? DATABASE_CONFIG : configPath });
  // Cluster mode (ADR 040): the database's config goes in force first; its writer replaces the file's.
  const desired = store.postgres
    ? await (await import('./open-desired-config.js')).openDesiredConfig({
        sql: store.postgres,
        replica,
        env,
        log,
        file: { path: configPath, text: started.loaded.text },
        hub,
        applier,
        config,
        tracing: started.tracing,
        keystore: started.keystore,
      })
    : null;
  if (desired) undo.push(() => desired.close());
  // Rug-pull pins (X5): the servers connected by now are checked at start, later ones on the bus.
  const pins = createPinGuard({
    db: store.db,
    bus,
    log,
    hub,
    servers: () => Object.keys(config().mcpServers),
    settings: () => config().pins,
    audit,
    leads: cluster.leadership.isLeader,
  });
  await pins.start();
  undo.push(() => pins.stop());
  undo.push(
    startAuditRetention({
      db: store.db,
      cap: audit.cap,
      days: () => config().audit.retentionDays,
      log,
      leader: cluster.leadership,
    }),
  );
  // Replicas on one PostgreSQL share the rate limits and session caps (ADR 042); null on SQLite.
  const fleetLimits = store.postgres
    ? (await import('./open-fleet-limits.js')).openFleetLimits({
        store,
        sessions: started.sessions,
        config,
        log,
        replica,
      })
    : null;
  // After the gateway has closed its sessions (pushed before it, so it runs after).
  if (fleetLimits) undo.push(() => fleetLimits.stop());
  // Started after the upstreams: what the bus said before is replayed to these.
  const early = replayFromStart(bus);
  undo.push(auditBusEvents(early, audit));
  // Servers connecting, lost, retried, disabled: rows a bot tab shows beside its own (bounded per window).
  const lifecycle = createLifecycleAudit({ audit, windowMs: () => config().audit.undeliveredWindowMs });
  undo.push(
    early.subscribeTo(LIFECYCLE_EVENT_TYPES, ({ event, at }) => {
      lifecycle.observe(event, at);
    }),
  );
  undo.push(() => lifecycle.close());
  // Cluster mode: MCP 2026-07-28 listen streams and input_required rounds on any replica (ADR 044).
  const modernFleet = openModernFleet(env, desired?.bus ?? null);
  const gateway = createGateway({
    hub,
    bus,
    log,
    config,
    tracker: started.tracker,
    sessions: fleetLimits?.sessions ?? started.sessions,
    ...(fleetLimits ? { fleet: fleetLimits.fleet } : {}),
    pins,
    audit,
    undelivered,
    budget,
    openUpstream: ({ serverId, config: server, peer: own }) =>
      connectUpstream({ serverId, config: server, peer: own, ...started.upstreamOptions() }),
    // Gateway and bots meet only here, through the ports of src/bots/ports.ts.
    bots: (caller) => createBotSurface({ ...botBase, tools: caller, tracer: started.tracing?.tracer ?? null }),
    botExists: async (slug) => (await findBotBySlug(store.db, slug)) !== null,
    answerSampling: sampling.answer,
    schemaValidator: await started.upstreamOptions().schemaValidator,
    secrets: started.secrets,
    tracer: started.tracing?.tracer ?? null,
    ...(modernFleet?.flows ? { fleetFlows: modernFleet.flows } : {}),
  });
  undo.push(() => gateway.close());
  // Cluster mode: revocations, quarantines and bot changes told to every replica (issue 22 part 7).
  const fleet = desired
    ? await (await import('./open-fleet-state.js')).openFleetState({
        fleet: desired.bus,
        db: store.db,
        log,
        config,
        events: bus,
        tokens,
        gateway,
        pins,
        botChanges: botBase.changes,
        oauth: started.oauth && store.postgres ? { oauth: started.oauth, sql: store.postgres, hub } : undefined,
      })
    : null;
  if (fleet) undo.push(() => fleet.stop());
  const bots: BotDeps = { ...botBase, tools: gateway.botToolCaller, tracer: started.tracing?.tracer ?? null };
  const reportBots = () => void reportBotSources(bots, config().bots).catch(() => undefined);
  undo.push(bus.subscribeTo(['config_applied'], reportBots));
  const persisted = await persistConnections({
    hub,
    bus: early,
    db: store.db,
    log,
    replica: store.postgres ? replica : undefined,
  });
  undo.push(() => persisted.flush());
  // The resumption buffers of every HTTP session share one budget (X8).
  const buffers = createSseBufferPool({ maxBytes: () => config().gateway.maxBufferBytes });
  // Every SSE stream is bounded in what its client leaves unsent; the streams let go are counted (X8).
  const writeGuard = createSseWriteGuard({
    maxUnsentBytes: () => config().http.maxUnsentBytesPerStream,
    log: log.child({ mod: 'http' }),
  });
  const metrics = createMetrics({
    hub,
    bus: early,
    sessions: gateway.sessions,
    bufferBytes: buffers.bytes,
    slowReaders: writeGuard.closed,
    ...(audit.cap ? { audit: audit.cap.stats } : {}),
    admission: gateway.admission,
    ...(started.tracing ? { spansDropped: started.tracing.dropped } : {}),
    ...(started.tracing?.durations ? { operationDurations: started.tracing.durations } : {}),
  });
  undo.push(() => metrics.close());
  const writer =
    desired?.writer ??
    createConfigWriter({ path: configPath, env, apply: applier.apply, inForce: config, keystore: started.keystore });
  const webUi = createWebUi(started.secrets);
  undo.push(sweepIdleSessions({ gateway, config, log }));
  if (!desired) applier.warn(started.loaded.warnings);
  // Cluster mode: listened on once its servers left `connecting` (≤ `firstListWaitMs`): no call comes too soon.
  if (http && store.postgres) await createServersSettled({ bus, hub, config })({ spec: { kind: 'all' } });
  if (http) {
    await http.serve({
      hub,
      config,
      bus,
      log,
      host: started.host,
      adminToken: started.adminToken,
      metrics,
      gateway,
      port: () => http.port,
      db: store.db,
      auditWritten: () => audit.flush(),
      replica,
      cluster: () =>
        readCluster({
          db: store.db,
          self: replica,
          database: store.postgres ? 'postgres' : 'sqlite',
          staleAfterMs: config().replicas.staleAfterMs,
        }),
      pins,
      sampling: budget,
      configWriter: writer,
      env,
      bots,
      keystore: {
        names: () => started.keystore.names(),
        remove: (name) => started.keystore.remove(name),
        // Masked in the log from the moment the service holds it, as a secret read for a connect is.
        set: async (name, secret) => {
          await started.keystore.set(name, secret);
          started.secrets.add(secret);
        },
      },
      ui: webUi,
      ...(started.oauth ? { oauth: started.oauth } : {}),
      buffers,
      writeGuard,
      sealing: openSealing(
        env,
        store.db,
        desired?.bus ?? null,
        store.postgres && { sql: store.postgres, log },
        () => config().replicas.staleAfterMs,
      ),
      listenFleet: modernFleet?.listen ?? null,
      ...(fleetLimits ? { sharedLimiters: fleetLimits.shared } : {}),
      // In a fleet, a revocation answers once every replica forgot the token.
      verifyToken: started.verifyToken ?? fleet?.verifyToken ?? tokens,
    });
    // On stop, requests end before anything they would use.
    undo.push(() => http.close());
  }
  // First on stop: no new sessions or requests; those in flight answer within the grace period.
  undo.push(() => gateway.drain(config().shutdown.graceMs));
  // Before that, in cluster mode: no new connection (a balancer passes it on), what came answered (issue 22).
  if (http && store.postgres) undo.push(() => http.stopListening(config().shutdown.graceMs));
  reportBots();
  if (desired) return { gateway, webUi };
  const watcher = watchConfig(configPath, {
    env,
    inForce: config,
    queue: writer.queue,
    readText: started.loaded.text,
    onChange: (next) => applier.apply(next),
    onWarnings: applier.warn,
    onError: applier.reject,
  });
  undo.push(() => watcher.close());
  return { gateway, webUi };
}
