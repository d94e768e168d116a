/**
 * Every route under `/api` (SPEC A1, A2, section 7) on one OpenAPIHono, so that one OpenAPI
 * document lists them all. Authentication, rate limits and the body limit run before it
 * (`create-app.ts`).
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { BotDeps } from '../../bots/bot-deps.js';
import type { EventBus } from '../../bus/create-event-bus.js';
import type { ClusterView } from '../../cluster/index.js';
import type { ConfigWriter } from '../../config/config-writer.js';
import type { AppConfig } from '../../config/schema.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { Gateway } from '../../gateway/index.js';
import { effectiveServers } from '../../gateway/views/index.js';
import type { VerifyToken } from '../../guard/caller.js';
import type { Hub } from '../../hub/create-hub.js';
import { findBotBySlug } from '../../storage/bot-repo.js';
import type { Db } from '../../storage/create-db.js';
import type { SseWriteGuard } from '../io/index.js';
import { createApi } from './api-schemas.js';
import { auditRoutes } from './audit-routes.js';
import { botRoutes } from './bots/bot-routes.js';
import { callToolRoutes } from './call-tool-route.js';
import { catalogRoutes } from './catalog-routes.js';
import { clusterRoutes } from './cluster-routes.js';
import { completeRoutes } from './complete-route.js';
import { configRoutes } from './config-routes.js';
import { type CredentialStore, credentialsRoutes } from './credentials-routes.js';
import { registerDocsRoutes } from './docs-routes.js';
import { eventsRoute, eventsRouteSpec } from './events-route.js';
import { getPromptRoutes } from './get-prompt-route.js';
import { importRoutes } from './import-routes.js';
import { type OAuthRouteDeps, oauthRoutes } from './oauth-routes.js';
import { presetsRoutes } from './presets-routes.js';
import { quarantinesRoutes } from './quarantines-routes.js';
import { readResourceRoutes } from './read-resource-route.js';
import { type ApprovePins, serverActionsRoutes } from './server-actions-routes.js';
import type { SamplingUsage } from './server-view.js';
import { serversRoutes } from './servers-routes.js';
import { tokensRoutes } from './tokens-routes.js';
import { toolSearchRoutes } from './tool-search-routes.js';

/** What the API needs; the optional parts turn their routes on. */
export type ApiDeps = {
  hub: Hub;
  /** The config in force. */
  config: () => AppConfig;
  bus: EventBus<HubEvent>;
  heartbeatMs?: number;
  /** The bound on what an SSE client leaves unsent (X8). */
  writeGuard?: SseWriteGuard;
  /** Writes the config file: the routes that add, change, remove and import servers. */
  writer?: ConfigWriter;
  /** The environment presets' variables may come from. */
  env?: NodeJS.ProcessEnv;
  /** Test-tool goes through the gateway like an agent's call. */
  gateway?: Gateway;
  db?: Db;
  /** Writes the audit's queue before `/api/audit` reads (`AuditWriter.flush`). */
  auditWritten?: () => Promise<void>;
  pins?: ApprovePins;
  sampling?: SamplingUsage;
  /** The bots (registry, memories, skills, workflows, chat): turns on `/api/bots`. */
  bots?: BotDeps;
  /** Told of each token revoked, so that it forgets the token at once (in a fleet: every replica does). */
  verifyToken?: VerifyToken;
  /** The home's keystore: turns on `/api/credentials` (names and writes, never a value out). */
  keystore?: CredentialStore;
  /** OAuth to upstreams (issue 23): the authorize routes. */
  oauth?: Omit<OAuthRouteDeps, 'hub'>;
  /** The replica this process is (ADR 041): the `replica` of servers and events. */
  replica?: string;
  /** The fleet view: turns on `GET /api/cluster`. */
  cluster?: () => Promise<ClusterView>;
};

/** The base path of the control API. */
export const API_BASE = '/api';

/** The `/api` app; mount it with `app.route('/', api)`. */
export function createApiRoutes(deps: ApiDeps): OpenAPIHono {
  const { hub, config, bus, writer, gateway, db, bots } = deps;
  const api = createApi().basePath(API_BASE);
  const env = deps.env ?? process.env;
  const optional = {
    ...(deps.pins ? { pins: deps.pins } : {}),
    ...(deps.sampling ? { sampling: deps.sampling } : {}),
    ...(deps.replica ? { replica: deps.replica } : {}),
  };
  api.openapi(
    eventsRouteSpec,
    eventsRoute({
      hub,
      config,
      bus,
      ...(deps.heartbeatMs ? { heartbeatMs: deps.heartbeatMs } : {}),
      ...(deps.writeGuard ? { writeGuard: deps.writeGuard } : {}),
      replica: deps.replica ?? null,
      ...(bots ? { botExists: async (slug: string) => (await findBotBySlug(bots.db, slug)) !== null } : {}),
    }),
  );
  if (writer) api.route('/servers', importRoutes({ writer, env }));
  api.route('/servers', serversRoutes({ hub, config, env, ...(writer ? { writer } : {}), ...optional }));
  api.route('/servers', serverActionsRoutes({ hub, config, ...optional }));
  api.route('/servers', catalogRoutes({ hub }));
  if (deps.oauth) api.route('/servers', oauthRoutes({ hub, ...deps.oauth }));
  if (gateway) api.route('/servers', callToolRoutes({ hub, config, gateway }));
  if (gateway) api.route('/tools', toolSearchRoutes({ gateway }));
  if (gateway) {
    api.route('/servers', readResourceRoutes({ hub, config, gateway }));
    api.route('/servers', getPromptRoutes({ hub, config, gateway }));
    api.route('/servers', completeRoutes({ hub, config, gateway }));
  }
  api.route('/presets', presetsRoutes());
  if (deps.cluster) api.route('/cluster', clusterRoutes({ read: deps.cluster }));
  if (deps.keystore) api.route('/credentials', credentialsRoutes({ keystore: deps.keystore }));
  api.route(
    '/config',
    configRoutes({ config, file: writer?.path ?? null, ...(writer ? { version: () => writer.version() } : {}) }),
  );
  if (db) {
    const onRevoke = async (id: string) => {
      await deps.verifyToken?.forget?.(id);
      await gateway?.closeSessionsOf(id);
    };
    api.route('/tokens', tokensRoutes({ db, config, onRevoke }));
    api.route(
      '/audit',
      auditRoutes({
        db,
        botServers: (slug) => effectiveServers(config(), { kind: 'bot', slug }),
        ...(deps.auditWritten ? { written: deps.auditWritten } : {}),
      }),
    );
    api.route('/quarantines', quarantinesRoutes({ db, config }));
  }
  if (deps.bots) api.route('/bots', botRoutes({ bots: deps.bots, config, writer }));
  registerDocsRoutes(api);
  return api;
}
