/**
 * The composition root: the only place that creates real dependencies. Resolves paths,
 * loads the config, opens the database, reaps orphans of a crashed run, starts the hub,
 * the config watcher and the HTTP server, and drains all of it on stop.
 * @module
 */

import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createEventBus } from './bus/create-event-bus.js';
import { writeDefaultConfig } from './config/default-config.js';
import { loadConfig } from './config/load-config.js';
import { resolveConfigPath, resolveHome } from './config/resolve-paths.js';
import { watchConfig } from './config/watch-config.js';
import type { ConfigError } from './errors.js';
import { createApp } from './http/create-app.js';
import { serveHttp } from './http/serve-http.js';
import { createHub, type Hub } from './hub/create-hub.js';
import type { HubEvent } from './hub/hub-event.js';
import { persistConnections } from './hub/persist-connections.js';
import { createLogger } from './log/create-logger.js';
import { createMetrics } from './metrics/create-metrics.js';
import { ensureAdminToken } from './storage/admin-token.js';
import { createDb, databaseUrlFor } from './storage/create-db.js';
import { createProcessLedger } from './storage/process-ledger.js';
import { connectUpstream } from './upstream/connect-upstream.js';
import { reapOrphans } from './upstream/reap-orphans.js';

/** Options of {@link startService}; the CLI maps flags onto them. */
export type ServiceOptions = {
  config?: string;
  home?: string;
  host?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  log?: Logger;
};

/** A running service. */
export type Service = {
  url: string;
  port: number;
  configPath: string;
  tokenSource: string;
  hub: Hub;
  stop(reason?: string): Promise<void>;
};

/** Start boternity. Rejects (with a ConfigError naming file, server and field) on a bad config. */
export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const env = options.env ?? process.env;
  const log = options.log ?? createLogger();
  const home = resolveHome({ ...(options.home ? { home: options.home } : {}), env });
  await mkdir(home, { recursive: true, mode: 0o700 });
  const { path: configPath, source } = resolveConfigPath({
    ...(options.config ? { config: options.config } : {}),
    home,
    env,
  });
  if (source === 'home' && (await writeDefaultConfig(configPath, home)))
    log.info({ path: configPath }, 'wrote a default config');
  const config = await loadConfig(configPath, env);

  const store = await createDb({ url: databaseUrlFor(home, env) });
  const ledger = createProcessLedger(store.db);
  const orphans = await ledger.list();
  if (orphans.length > 0) {
    const results = await reapOrphans(orphans, { graceMs: config.shutdown.graceMs, log });
    for (const entry of orphans) await ledger.forget(entry.pid);
    log.warn({ results }, 'ended child processes left by a previous run');
  }
  const admin = await ensureAdminToken(home, env);

  const bus = createEventBus<HubEvent>({}, (error) => log.error({ err: error }, 'event listener failed'));
  const hub = createHub({
    log,
    bus,
    open: ({ serverId, config: server, signal }) =>
      connectUpstream({
        serverId,
        config: server,
        signal,
        log,
        ledger,
        stderrLines: hub.config().logs.stderrLines,
        graceMs: hub.config().shutdown.graceMs,
      }),
  });
  const persisted = await persistConnections({ hub, bus, db: store.db, log });
  hub.applyConfig(config);

  const watcher = watchConfig(configPath, {
    env,
    initial: config,
    onChange: (next) => {
      log.info({ path: configPath }, 'config reloaded');
      hub.applyConfig(next);
    },
    onError: (error: ConfigError) => {
      log.warn(
        { path: configPath, issues: error.issues },
        `config rejected, keeping the last good one: ${error.message}`,
      );
      bus.publish({
        type: 'config_error',
        server: error.issues[0]?.server ?? null,
        file: configPath,
        message: error.message,
        issues: error.issues,
      });
    },
  });

  const metrics = createMetrics({ hub, bus });
  const app = createApp({ hub, bus, log, adminToken: admin.token, metrics });
  const http = await serveHttp({ app, host: options.host ?? '127.0.0.1', port: options.port ?? 7777 });
  const address = http.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  log.info({ url, config: configPath, home }, 'boternity started');

  let stopping: Promise<void> | null = null;
  return {
    url,
    port: address.port,
    configPath,
    tokenSource: admin.source === 'env' ? 'from BOTERNITY_ADMIN_TOKEN' : `in ${admin.path}`,
    hub,
    stop(reason = 'stop') {
      stopping ??= (async () => {
        log.info({ reason }, 'boternity stopping');
        watcher.close();
        metrics.close();
        await http.close();
        await hub.stop();
        await persisted.flush();
        await store.close();
        log.info('boternity stopped');
        log.flush();
      })();
      return stopping;
    },
  };
}
