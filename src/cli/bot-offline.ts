/**
 * The bots' API without a service (SPEC A4): the same routes the service mounts at
 * `/api/bots`, run in this process on the data directory's database and the config file
 * (edits written under the file's lock). What needs the gateway (running a workflow,
 * chatting) is refused with a line saying so.
 * @module
 */
import type { Sql } from 'postgres';
import type { BotChange } from '../bots/ports.js';
import { HubError } from '../errors.js';
import type { Target } from './resolve-target.js';

/** Answer `method path` (under `/api/bots`) in-process; throws the API's error message as a HubError. */
export async function offlineBotRequest<T>(target: Target, method: string, path: string, body?: unknown): Promise<T> {
  const [{ Hono }, { pino }, bots, config, storage, http, bus] = await Promise.all([
    import('hono'),
    import('pino'),
    import('../bots/bot-limits.js'),
    import('../config/load-config.js'),
    import('../storage/create-db.js'),
    import('../http/api/bots/bot-routes.js'),
    import('../bus/create-event-bus.js'),
  ]);
  const { toErrorResponse } = await import('../http/perimeter/http-errors.js');
  const configPath = target.configPath();
  const { existsSync } = await import('node:fs');
  const { parseConfig } = await import('../config/parse-config.js');
  // No config file yet: the defaults (a view edit writes the file).
  const fromFile = existsSync(configPath)
    ? await config.loadConfig(configPath, target.env)
    : parseConfig({ mcpServers: {} }, null, target.env);
  const { targetDatabaseUrl } = await import('./target-database-url.js');
  // '': the config is read already and names no database.
  const store = await storage.createDb({ url: await targetDatabaseUrl(target, fromFile.database.url ?? '') });
  // Cluster mode (ADR 040): views are edited in the database's config, not the file.
  const { offlineConfigWriter } = await import('./offline-config-writer.js');
  const { writer, config: current } = await offlineConfigWriter(
    store,
    { path: configPath, config: fromFile },
    target.env,
  ).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const log = pino({ level: 'silent' });
  // What the verbs change is kept, for the replicas of a cluster to hear of it once it is written.
  const changes = bus.createEventBus<BotChange>();
  const changed: BotChange[] = [];
  changes.subscribe(({ event }) => void changed.push(event));
  const needsService = async (): Promise<never> => {
    throw new HubError('upstream_unavailable', 'calling tools needs the running service (bnity serve)');
  };
  try {
    const app = new Hono();
    app.onError((error, c) => toErrorResponse(error, c, log));
    app.route(
      '/api/bots',
      http.botRoutes({
        bots: {
          db: store.db,
          log,
          limits: bots.botLimits(),
          tools: { listTools: needsService, callTool: needsService },
          credentials: { get: async () => null },
          changes,
          // No service runs here, so nobody listens: what a verb publishes here goes nowhere.
          events: bus.createEventBus(),
          secrets: new Set(),
        },
        config: current,
        writer,
      }),
    );
    const response = await app.request(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!response.ok)
      throw new HubError(response.status >= 500 ? 'internal' : 'bad_request', answer?.error?.message ?? 'failed');
    if (store.postgres && changed.length > 0) await tellReplicas(store.postgres, changed, target.env);
    return answer as T;
  } finally {
    await store.close();
  }
}

/**
 * Cluster mode (issue 22 part 7): the running replicas hear of the bots changed here on the
 * fleet bus, as of a change made through one of them (their bot tools and prompts move).
 */
async function tellReplicas(sql: Sql, changed: readonly BotChange[], env: NodeJS.ProcessEnv): Promise<void> {
  const { BOTS_TOPIC, createFleetBus, processId } = await import('../cluster/index.js');
  const fleet = createFleetBus({ sql, replica: `cli-${processId(env)}`, log: { warn: () => undefined } });
  for (const change of changed) await fleet.publish(BOTS_TOPIC, change);
}
