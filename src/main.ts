/**
 * The composition root: the only place that creates real dependencies. Resolves paths,
 * loads the config, takes the home lock, binds the port and spawns the upstreams first
 * (issue 8: time to first call); the database (with the reaping of a crashed run's
 * orphans), the audit, the bots, the gateway and the HTTP side are loaded and built while
 * the upstreams start (`src/start/`). Drains all of it on stop.
 * @module
 */
import { chmod, mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { createEventBus } from './bus/create-event-bus.js';
import { writeDefaultConfig } from './config/default-config.js';
import { loadConfigDetailed } from './config/load-config.js';
import { removeStaleTemps } from './config/remove-stale-temps.js';
import { resolveConfigPath, resolveHome } from './config/resolve-paths.js';
import type { AppConfig } from './config/schema.js';
import type { HubEvent } from './events/hub-event.js';
import type { Gateway } from './gateway/index.js';
import { PEER_CAPABILITIES } from './gateway/peer/peer-capabilities.js';
import { createCallTracker } from './gateway/relay/call-tracker.js';
import { createSessionRegistry } from './gateway/session/session-registry.js';
import type { VerifyToken } from './guard/caller.js';
import { listenHttp } from './http/index.js';
import { createHub, type Hub } from './hub/create-hub.js';
import { reportFlood } from './hub/report-flood.js';
import { createLogger } from './log/create-logger.js';
import { restoreHeapGrowth } from './runtime/limit-heap-growth.js';
import type { ProcessTuning } from './runtime/tune-process.js';
import type { CodeCacheState } from './start/load-bundle.js';
import { nextTurn, settled } from './start/next-turn.js';
import type { CallParts } from './start/open-call-parts.js';
import { openOAuth } from './start/open-oauth.js';
import { keystorePath, openServiceKeystore } from './start/open-service-keystore.js';
import type { Storage } from './start/open-storage.js';
import { applyFirst, followServers, openTracing } from './start/open-tracing.js';
import { stopBudget, type UndoStep, unwindSteps } from './start/unwind-steps.js';
import { ensureAdminToken } from './storage/admin-token.js';
import { isClusterDatabase } from './storage/database-url.js';
import { acquireHomeLock } from './storage/home-lock.js';
import { maskedCredentials } from './storage/masked-credentials.js';
import { recordServiceUrl } from './storage/service-url.js';
import type { Tracing } from './telemetry/start-tracing.js';
import { connectUpstream } from './upstream/connect-upstream.js';
import { deferLedger } from './upstream/defer-ledger.js';
import { deferPeer } from './upstream/defer-peer.js';
import { createNotificationLimits } from './upstream/notification-limits.js';
import type { Prespawned } from './upstream/prespawned.js';

/** Options of {@link startService}; the CLI maps flags onto them. */
export type ServiceOptions = {
  config?: string;
  home?: string;
  host?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  log?: Logger;
  /** Serve HTTP (default); `false` for `bnity mcp serve --stdio`, which serves one stdio session. */
  listen?: boolean;
  /** Values to mask in the log (shared with the logger made by the CLI). */
  secrets?: Set<string>;
  /** Accepts tokens besides the admin token, e.g. bot-bound ones (the API token store plugs in here). */
  verifyToken?: VerifyToken;
  /** Tunes V8 unless `runtime.tuneProcess: false`: given by `bnity serve`, which owns its process. */
  tuneProcess?: () => ProcessTuning;
  /**
   * Stdio children `bin/bnity.js` started before the code loaded (ADR 032): each adopted by a first
   * connect that would spawn exactly it; the rest, and all when the start fails, are ended.
   */
  prespawned?: Prespawned;
  /** What became of the bundle's code cache (ADR 033), said when the service has started. */
  codeCache?: CodeCacheState;
  /** Traces made by the caller (tests: an in-memory exporter); otherwise started here when the config or `OTEL_*` say so. */
  tracing?: Tracing;
};

/** A running service. */
export type Service = {
  url: string;
  port: number;
  configPath: string;
  tokenSource: string;
  /** The web UI's one-time sign-in link (a secret: printed, never logged); null without HTTP. */
  signInUrl: string | null;
  hub: Hub;
  gateway: Gateway;
  /** The config in force. */
  config: () => AppConfig;
  stop(reason?: string): Promise<void>;
};

/** Start boternity. Rejects (with a ConfigError naming file, server and field) on a bad config. */
export async function startService(options: ServiceOptions = {}): Promise<Service> {
  try {
    return await startOwned(options);
  } catch (error) {
    // A child started early must not outlive a start that failed, wherever it failed.
    await options.prespawned?.endRest();
    throw error;
  }
}

/** The start itself; {@link startService} ends the pre-spawned children when it fails. */
async function startOwned(options: ServiceOptions): Promise<Service> {
  const env = options.env ?? process.env;
  const secrets = options.secrets ?? new Set<string>();
  const log = options.log ?? createLogger({ secrets });
  const home = resolveHome({ ...(options.home ? { home: options.home } : {}), env });
  await mkdir(home, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing home as it was (often 0755): it holds the admin token and keys.
  await chmod(home, 0o700);
  const { path: configPath, source } = resolveConfigPath({
    ...(options.config ? { config: options.config } : {}),
    home,
    env,
  });
  if (source === 'home' && (await writeDefaultConfig(configPath, home)))
    log.info({ path: configPath }, 'wrote a default config');
  const loaded = await loadConfigDetailed(configPath, env);
  const { config } = loaded;

  // Everything opened from here on is closed again, in reverse, if a later step fails.
  const undo: UndoStep[] = [];
  // Every step runs even when an earlier one fails or hangs: the lock and the database must close.
  const unwind = () => unwindSteps(undo, log, stopBudget(config.shutdown.graceMs));
  try {
    const lock = await acquireHomeLock(home);
    undo.push(() => lock.release());
    // The process's V8 tuning, when the caller owns the process (`bnity serve`) and the config allows.
    const tuning = config.runtime.tuneProcess ? (options.tuneProcess?.() ?? null) : null;
    // `bnity serve` limited the old generation's growth before loading (bin/bnity.js): undone when off.
    if (!config.runtime.tuneProcess && options.tuneProcess) restoreHeapGrowth();
    if (tuning) {
      undo.push(() => tuning.stop());
      log.info('process tuned for a long-running service (runtime.tuneProcess)');
    }
    // Traces (issue 21): the SDK loaded only when on; flushed last on stop (pushed first).
    const tracing = options.tracing ?? (await openTracing(config.telemetry, env, log));
    if (tracing) undo.push(() => tracing.shutdown());
    const admin = await ensureAdminToken(home, env);
    // Read at each connect (a credential set applies at the next reconnect); on PostgreSQL the database's (ADR 041).
    const keystore = await openServiceKeystore({ home, env, config, storage: () => storage });
    const credentials = maskedCredentials(keystore, secrets);
    // Temp files of a write killed half-way (kill -9) in an earlier run: ours by name, writer gone.
    for (const removed of await Promise.all([removeStaleTemps(configPath), removeStaleTemps(keystorePath(home))]))
      if (removed.length > 0) log.info({ removed }, 'removed temp files left by an interrupted write');
    // Bind first: a taken port fails before anything starts (503 until the app is built); on
    // PostgreSQL (cluster mode) listened on again only once it serves: a starting replica refuses connections.
    const host = options.host ?? '127.0.0.1';
    const late = isClusterDatabase(home, env, config.database.url);
    const http = options.listen === false ? null : await listenHttp({ host, port: options.port ?? 7777, late });
    if (http) undo.push(() => http.close());
    const bus = createEventBus<HubEvent>({}, (error) => log.error({ err: error }, 'event listener failed'));
    // The config in force: every part reads it through `currentConfig`; `hub.applyConfig` replaces it.
    let inForce = config;
    const currentConfig = (): AppConfig => inForce;
    undo.push(followServers(tracing, bus, currentConfig));
    const tracker = createCallTracker();
    const sessions = createSessionRegistry();
    // Started in the next turn, after the spawns this turn begins: the database opens (and a crashed run's
    // orphans are ended) while the upstreams start; then the parts the calls, the ledger and the peer need.
    const storage: Promise<Storage> = nextTurn().then(async () =>
      (await import('./start/open-storage.js')).openStorage({ home, env, config, log }),
    );
    const parts: Promise<CallParts> = storage.then(async (opened) =>
      (await import('./start/open-call-parts.js')).openCallParts({
        storage: opened,
        log,
        config: currentConfig,
        credentials,
        tracker,
        sessions,
        events: bus,
        secrets,
      }),
    );
    // Closed after the hub (and all that audits) has stopped: pushed before it.
    undo.push(async () => (await settled(storage))?.store.close());
    undo.push(async () => (await settled(parts))?.audit.close());
    // The counts of undelivered notifications go to the audit before it closes.
    undo.push(async () => (await settled(parts))?.undelivered.close());
    undo.push(async () => (await settled(parts))?.budget.flush());
    // One validator, its cache bounded (X8), for every upstream client's output-schema checks and every
    // agent session. Loaded after the spawns, as the SDK is (ADR 015 §8): Ajv is a sixth of the bundle
    // before them; and Ajv itself is made at the first schema checked (issue 8).
    const schemaValidator = nextTurn().then(async () =>
      (await import('./guard/schema-validator.js')).createSchemaValidator(),
    );
    const ledger = deferLedger(storage.then((opened) => opened.ledger));
    // Every connection's notifications are rate-limited; floods are told on the bus (issue 17).
    const notifications = createNotificationLimits({ onChange: reportFlood(log, bus) });
    undo.push(() => notifications.close());
    // OAuth to HTTP upstreams (issue 23), loaded at its first use; an authorization connects its server.
    const origin = () => loopbackUrl(http?.url ?? 'http://127.0.0.1');
    const oauth = openOAuth({ keystore, secrets, config: currentConfig, origin, connect: (n) => hub.connect(n), log });
    // A removed server's tokens are forgotten: a new server of that name must not inherit them.
    undo.push(
      bus.subscribeTo(['config_applied'], ({ event }) => {
        if (event.removed.length === 0) return;
        void oauth.forgetRemoved(event.removed).then((failed) => {
          for (const { server, error } of failed) log.warn({ server, err: error }, 'oauth: forgetting tokens failed');
        });
      }),
    );
    const upstreamOptions = () => ({
      notifications,
      log,
      ledger,
      schemaValidator,
      stderrLines: currentConfig().logs.stderrLines,
      graceMs: currentConfig().shutdown.graceMs,
      credentials,
      authorize: oauth.authorize,
      tracer: tracing?.tracer ?? null,
    });
    const { prespawned } = options;
    const builtPeer = parts.then((built) => built.peer);
    const peer = deferPeer(builtPeer, PEER_CAPABILITIES);
    const hub = createHub({
      log,
      bus,
      floods: notifications,
      traces: tracing,
      config: {
        get: currentConfig,
        set: (next) => {
          inForce = next;
        },
      },
      open: ({ serverId, config: server, signal, stderr }) =>
        connectUpstream({ serverId, config: server, signal, stderr, peer, prespawned, ...upstreamOptions() }),
    });
    undo.push(() => hub.stop());
    // Start the upstreams now (cluster mode: the database's config, once open, ADR 040); the rest loads meanwhile.
    if (!isClusterDatabase(home, env, config.database.url))
      applyFirst(tracing, config, configPath, () => hub.applyConfig(config, { file: configPath }));
    // Each first connect has taken its child by now (a spawn is not awaited): the rest are ended.
    if (prespawned?.waiting().length)
      log.info({ servers: prespawned.waiting() }, 'pre-spawned children not adopted: ending them');
    const unadopted = prespawned?.endRest(config.shutdown.graceMs);
    if (unadopted) undo.push(() => unadopted);
    const [opened, built, { serveService }] = await Promise.all([storage, parts, import('./start/serve-service.js')]);
    const { gateway, webUi } = await serveService(
      {
        env,
        log,
        secrets,
        configPath,
        loaded,
        config: currentConfig,
        bus,
        hub,
        tracker,
        sessions,
        http,
        host,
        adminToken: admin.token,
        keystore,
        verifyToken: options.verifyToken,
        upstreamOptions,
        undo,
        tracing,
        oauth: oauth.lazy,
      },
      opened,
      built,
    );
    tuning?.started();
    const url = http?.url ?? '';
    // The CLI and the stdio bridge of this home find the service here, on whatever port (removed first on stop).
    if (http) undo.push(await recordServiceUrl(home, loopbackUrl(http.url)));
    log.info({ url, config: configPath, home, codeCache: options.codeCache }, 'boternity started');
    let stopping: Promise<void> | null = null;
    return {
      url,
      port: http?.port ?? options.port ?? 7777,
      configPath,
      tokenSource: admin.source === 'env' ? 'from BOTERNITY_ADMIN_TOKEN' : `in ${admin.path}`,
      signInUrl: url ? webUi.signInUrl(url) : null,
      hub,
      gateway,
      config: currentConfig,
      stop(reason = 'stop') {
        stopping ??= (async () => {
          log.info({ reason }, 'boternity stopping');
          await unwind();
          log.info('boternity stopped');
          log.flush();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await unwind();
    log.flush();
    throw error;
  }
}

/** `url` with a wildcard address (`0.0.0.0`, `[::]`) replaced by the loopback one, which a local client can reach. */
const loopbackUrl = (url: string): string => url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
