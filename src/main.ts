/**
 * The composition root: the only place that creates real dependencies. Resolves paths,
 * loads the config, opens the database, reaps orphans of a crashed run, starts the hub,
 * the config watcher and the HTTP server, and drains all of it on stop.
 * @module
 */

import { chmod, mkdir } from 'node:fs/promises';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Logger } from 'pino';
import { createSamplingAnswerer } from './bots/answer-sampling.js';
import type { BotDeps } from './bots/bot-deps.js';
import { botLimits } from './bots/bot-limits.js';
import { createBotSurface } from './bots/create-bot-surface.js';
import type { BotChange } from './bots/ports.js';
import { reportBotSources } from './bots/report-bot-sources.js';
import { createEventBus } from './bus/create-event-bus.js';
import { createConfigWriter } from './config/config-writer.js';
import { writeDefaultConfig } from './config/default-config.js';
import { loadConfigDetailed } from './config/load-config.js';
import { resolveConfigPath, resolveHome } from './config/resolve-paths.js';
import type { AppConfig } from './config/schema.js';
import { watchConfig } from './config/watch-config.js';
import type { HubEvent } from './events/hub-event.js';
import { createCallTracker } from './gateway/call-tracker.js';
import { createGateway, type Gateway } from './gateway/create-gateway.js';
import { createPinGuard } from './gateway/pin-guard.js';
import { createSamplingBudget } from './gateway/sampling-budget.js';
import { createSessionRegistry } from './gateway/session-registry.js';
import { sweepIdleSessions } from './gateway/sweep-idle-sessions.js';
import { createUpstreamPeer } from './gateway/upstream-peer.js';
import type { VerifyToken } from './guard/caller.js';
import { createWebUi } from './http/create-web-ui.js';
import { listenHttp } from './http/serve-http.js';
import { createConfigApplier } from './hub/apply-config-change.js';
import { createHub, type Hub } from './hub/create-hub.js';
import { persistConnections } from './hub/persist-connections.js';
import { createLogger } from './log/create-logger.js';
import { createMetrics } from './metrics/create-metrics.js';
import { trimHeapWhenIdle } from './runtime/trim-heap-when-idle.js';
import { ensureAdminToken } from './storage/admin-token.js';
import { auditBusEvents, startAuditRetention } from './storage/audit-retention.js';
import { createAuditWriter } from './storage/audit-writer.js';
import { findBotBySlug } from './storage/bot-repo.js';
import { createDb, databaseUrlFor } from './storage/create-db.js';
import { acquireHomeLock } from './storage/home-lock.js';
import { openKeystore } from './storage/keystore.js';
import { createProcessLedger } from './storage/process-ledger.js';
import { createTokenVerifier } from './storage/token-verifier.js';
import { connectUpstream } from './upstream/connect-upstream.js';
import { reapLeftovers } from './upstream/reap-orphans.js';

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
  const undo: (() => Promise<unknown> | unknown)[] = [];
  const unwind = async () => {
    // Every step runs even when an earlier one fails: the lock and the database must close.
    for (const step of undo.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        log.warn({ err: error }, 'a shutdown step failed; going on');
      }
    }
  };
  try {
    const lock = await acquireHomeLock(home);
    undo.push(() => lock.release());
    const store = await createDb({ url: databaseUrlFor(home, env) });
    undo.push(() => store.close());
    const ledger = createProcessLedger(store.db);
    await reapLeftovers(ledger, config.shutdown.graceMs, log);
    const admin = await ensureAdminToken(home, env);
    // Read at each connect: `bnity mcp credential set` applies at a server's next reconnect.
    const keystore = await openKeystore({ home, env });
    // Secrets handed to upstreams are masked in the log output from then on.
    const credentials = {
      async get(name: string) {
        const secret = await keystore.get(name);
        if (secret) secrets.add(secret);
        return secret;
      },
    };
    // Bind first: a taken port fails before anything starts (503 until the app is built).
    const host = options.host ?? '127.0.0.1';
    const http = options.listen === false ? null : await listenHttp({ host, port: options.port ?? 7777 });
    if (http) undo.push(() => http.close());
    const bus = createEventBus<HubEvent>({}, (error) => log.error({ err: error }, 'event listener failed'));
    // The config in force: every part reads it through `currentConfig`; `hub.applyConfig` replaces it.
    let inForce = config;
    const currentConfig = (): AppConfig => inForce;
    // One Ajv for every upstream client's output-schema checks and every agent session.
    const schemaValidator = new AjvJsonSchemaValidator();
    const upstreamOptions = () => ({
      log,
      ledger,
      schemaValidator,
      stderrLines: currentConfig().logs.stderrLines,
      graceMs: currentConfig().shutdown.graceMs,
      credentials,
    });
    // Audit (X7): batched writes, flushed on shutdown (after everything that audits has stopped).
    const audit = createAuditWriter(store.db, { log, client: store.writer });
    undo.push(() => audit.close());
    const budget = await createSamplingBudget({
      db: store.db,
      budgetOf: (server) => currentConfig().mcpServers[server]?.samplingBudgetTokens,
      log,
    });
    undo.push(() => budget.flush());
    // The bots (B1–B4) without their tool port, which the gateway makes (it is its call path).
    const changes = createEventBus<BotChange>({}, (error) => log.error({ err: error }, 'bot listener failed'));
    const botBase = { db: store.db, log: log.child({ mod: 'bots' }), limits: botLimits(), credentials, changes };
    const sampling = {
      route: (server: string) => currentConfig().mcpServers[server]?.sampling ?? 'client',
      answer: createSamplingAnswerer(botBase),
    };
    // The hub's connections and the gateway's sessions meet here: one call tracker and one
    // session registry, shared by the upstream peer (the hub's side) and the gateway.
    const tracker = createCallTracker();
    const sessions = createSessionRegistry();
    const peer = createUpstreamPeer({ tracker, sessions, log: log.child({ mod: 'gateway' }), budget, audit, sampling });
    const hub = createHub({
      log,
      bus,
      config: {
        get: currentConfig,
        set: (next) => {
          inForce = next;
        },
      },
      open: ({ serverId, config: server, signal, stderr }) =>
        connectUpstream({ serverId, config: server, signal, stderr, peer, ...upstreamOptions() }),
    });
    undo.push(() => hub.stop());
    // Rug-pull pins (X5): following the bus before the hub connects anything.
    const pins = createPinGuard({
      db: store.db,
      bus,
      log,
      hub,
      servers: () => Object.keys(currentConfig().mcpServers),
      policy: () => currentConfig().pins.policy,
    });
    await pins.start();
    undo.push(() => pins.stop());
    const prune = startAuditRetention({ db: store.db, days: () => currentConfig().audit.retentionDays, log });
    undo.push(() => clearInterval(prune));
    undo.push(auditBusEvents(bus, audit));
    const gateway = createGateway({
      hub,
      bus,
      log,
      config: currentConfig,
      tracker,
      sessions,
      pins,
      audit,
      budget,
      openUpstream: ({ serverId, config: server, peer: own }) =>
        connectUpstream({ serverId, config: server, peer: own, ...upstreamOptions() }),
      // Gateway and bots meet only here, through the ports of src/bots/ports.ts.
      bots: (caller) => createBotSurface({ ...botBase, tools: caller }),
      botExists: async (slug) => (await findBotBySlug(store.db, slug)) !== null,
      answerSampling: sampling.answer,
      schemaValidator,
    });
    undo.push(() => gateway.close());
    const bots: BotDeps = { ...botBase, tools: gateway.botToolCaller };
    const reportBots = () => void reportBotSources(bots, currentConfig().bots).catch(() => undefined);
    undo.push(bus.subscribe(({ event }) => event.type === 'config_applied' && reportBots()));
    const persisted = await persistConnections({ hub, bus, db: store.db, log });
    undo.push(() => persisted.flush());
    const metrics = createMetrics({ hub, bus });
    undo.push(() => metrics.close());
    // One path applies a new config, whether the watcher read it or the API wrote it (C3, C4).
    const applier = createConfigApplier({ hub, bus, log, configPath });
    const writer = createConfigWriter({ path: configPath, env, apply: applier.apply });
    const webUi = createWebUi(secrets);
    const sweep = sweepIdleSessions({ gateway, config: currentConfig, log });
    undo.push(() => clearInterval(sweep));
    applier.warn(loaded.warnings);
    // Start the upstreams now: the HTTP side loads and builds while their processes start.
    hub.applyConfig(config, { file: configPath });
    if (http) {
      await http.serve({
        hub,
        config: currentConfig,
        bus,
        log,
        host,
        adminToken: admin.token,
        metrics,
        gateway,
        port: () => http.port,
        db: store.db,
        pins,
        sampling: budget,
        configWriter: writer,
        env,
        bots,
        ui: webUi,
        verifyToken:
          options.verifyToken ??
          createTokenVerifier(store.db, { onError: (error) => log.warn({ err: error }, 'token use not recorded') }),
      });
      // On stop, requests end before anything they would use.
      undo.push(() => http.close());
    }
    reportBots();
    const watcher = watchConfig(configPath, {
      env,
      initial: config,
      claim: writer.claim,
      onChange: (next) => applier.apply(next),
      onWarnings: applier.warn,
      onError: applier.reject,
    });
    undo.push(() => watcher.close());
    // After start-up and every later burst, the memory goes back once things are quiet.
    undo.push(trimHeapWhenIdle());

    const url = http?.url ?? '';
    log.info({ url, config: configPath, home }, 'boternity started');

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
