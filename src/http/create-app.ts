/**
 * The Hono app: `/healthz`, `/readyz`, `/metrics` and the control API under `/api` (SPEC
 * A1, A2, A5, X1, X2, section 7). The MCP endpoints under `/mcp` are served beside it on
 * `node:http` (`mcp-endpoint.ts`, ADR 006); both let requests in through the one perimeter
 * (`admit-request.ts`, ADR 028), whose middleware here is a thin use of it. Sees only the
 * Hub, the bus and the gateway, never xstate.
 * @module
 */
import { type Context, Hono } from 'hono';
import { except } from 'hono/combine';
import type { Logger } from 'pino';
import type { BotDeps } from '../bots/bot-deps.js';
import type { EventBus } from '../bus/create-event-bus.js';
import type { ClusterView } from '../cluster/index.js';
import type { ConfigWriter } from '../config/config-writer.js';
import type { AppConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Gateway } from '../gateway/index.js';
import { callerVerifier, type VerifyToken } from '../guard/caller.js';
import type { Hub } from '../hub/create-hub.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { OAuth } from '../oauth/index.js';
import type { Db } from '../storage/create-db.js';
import type { ApprovePins, CredentialStore, SamplingUsage } from './api/index.js';
import { API_BASE, createApiRoutes, PUBLIC_DOCS_PATHS } from './api/index.js';
import { compressJson } from './compress-json.js';
import type { SseWriteGuard } from './io/index.js';
import { oauthPages } from './oauth-pages.js';
import {
  adminOnly,
  createPerimeter,
  createRateLimiter,
  type EndpointRule,
  limitBody,
  type RateLimiter,
  requireOrigin,
  requireToken,
  toErrorResponse,
} from './perimeter/index.js';
import type { UiSessions } from './perimeter/ui-sessions.js';
import { tagJson } from './tag-json.js';
import type { UiAssets } from './web-ui/index.js';
import { uiRoutes } from './web-ui/index.js';

/** What the app needs. */
export type AppDeps = {
  hub: Hub;
  /** The config in force. */
  config: () => AppConfig;
  bus: EventBus<HubEvent>;
  log: Logger;
  adminToken: string;
  /** Maps other tokens to callers (bot-bound tokens); the admin token is always accepted. */
  verifyToken?: VerifyToken;
  /** The database, for `/api/tokens` and `/api/audit`. */
  db?: Db;
  /** Writes the audit's queue before `/api/audit` reads (`AuditWriter.flush`). */
  auditWritten?: () => Promise<void>;
  metrics?: Metrics;
  /** Serves the API's test-tool; its sessions end when their token is revoked. */
  gateway?: Gateway;
  /** The rate limits, shared with the MCP endpoints; a limiter of its own when absent. */
  limiter?: RateLimiter;
  /** The port listened on: turns on the Host/Origin check (off for in-process tests). */
  port?: () => number;
  heartbeatMs?: number;
  /** The bound on what an SSE client leaves unsent (X8), shared with the MCP endpoints. */
  writeGuard?: SseWriteGuard;
  /** The rug-pull pin guard, for `POST /api/servers/{name}/tools/{tool}/approve`. */
  pins?: ApprovePins;
  /** Sampling usage per server and its reset (X6). */
  sampling?: SamplingUsage;
  /** Writes the config file: turns on the routes that add, change, remove and import servers. */
  configWriter?: ConfigWriter;
  /** The service's environment (preset variables may come from it). */
  env?: NodeJS.ProcessEnv;
  /** The bots: turns on `/api/bots`. */
  bots?: BotDeps;
  /** The home's keystore: turns on `/api/credentials`. */
  keystore?: CredentialStore;
  /** The web UI at `/` and its sign-in; its session cookie then also opens `/api`. */
  ui?: {
    sessions: UiSessions;
    assets: UiAssets;
    newSignInLink?: (baseUrl: string) => { url: string; expiresAt: number };
  };
  /** OAuth to upstreams (issue 23): turns on `/oauth/*` and the authorize routes. */
  oauth?: OAuth;
  /** The replica this process is (ADR 041): `replica` in servers, events and `/readyz`. */
  replica?: string;
  /** The fleet view: turns on `GET /api/cluster`. */
  cluster?: () => Promise<ClusterView>;
};

/** Build the app; `serve-http.ts` puts it on a socket, tests call `app.request()`. */
export function createApp({
  hub,
  config,
  bus,
  log,
  adminToken,
  verifyToken,
  db,
  auditWritten,
  metrics,
  gateway,
  port,
  heartbeatMs,
  writeGuard,
  pins,
  sampling,
  configWriter,
  env,
  bots,
  keystore,
  ui,
  limiter,
  oauth,
  replica,
  cluster,
}: AppDeps): Hono {
  const app = new Hono();
  const httpLog = log.child({ mod: 'http' });
  app.onError((error, c) => toErrorResponse(error, c, httpLog));
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` } }, 404),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  // Browsers share cookies across a host's ports: the name keeps two services apart.
  const cookieName = () => (port ? `bnity_session_${port()}` : 'bnity_session');
  // The one perimeter, as the MCP endpoints have it: the rate limits shared with them (X3).
  const perimeter = createPerimeter({
    verify: callerVerifier(adminToken, verifyToken),
    limiter: limiter ?? createRateLimiter({ limits: () => config().limits }),
    policy: () => config().http,
    port,
    uiSessions: ui?.sessions,
  });
  if (port) {
    // DNS-rebinding defence before anything else, on every route but /healthz (X2).
    const origin = requireOrigin({ perimeter });
    app.use('*', async (c, next) => (c.req.path === '/healthz' ? next() : origin(c, next)));
  }
  // Only /healthz is open (SPEC section 7), and the API reference page's static files.
  // Readiness and metrics are for the admin token, not rate limited; other tokens reach /mcp only.
  const adminChecks: EndpointRule = { forbid: adminOnly, limited: false, maxBodyBytes: null };
  const adminCaller = requireToken({ perimeter, rule: adminChecks });
  app.use('/readyz', adminCaller);
  app.get('/readyz', (c) => c.json({ status: 'ready', servers: hub.listServers().length, replica: replica ?? null }));
  // The control API: the admin token or the web UI's cookie, the rate limits (X3), the body limit (X8).
  const apiChecks: EndpointRule = { forbid: adminOnly, limited: true, maxBodyBytes: () => config().http.maxBodyBytes };
  const apiCaller = requireToken({ perimeter, rule: apiChecks, ...(ui ? { cookieName } : {}) });
  // A body of unknown length is bounded as it is read.
  const body = limitBody({ maxBytes: () => config().http.maxBodyBytes });
  const publicPaths = new Set(PUBLIC_DOCS_PATHS.map((path) => `${API_BASE}${path}`));
  const isPublic = (c: Context) => c.req.method === 'GET' && publicPaths.has(c.req.path);
  // First on /api, so that they see every answer there, refusals included: JSON of 1 KB and
  // over compressed; a GET's JSON tagged, and 304 when the client has it already.
  app.use(`${API_BASE}/*`, compressJson(), tagJson());
  app.use(`${API_BASE}/*`, except(isPublic, apiCaller, body));
  if (ui) app.route('/', uiRoutes({ ...ui, adminToken, cookieName }));
  // Reached by browsers redirected from an authorization server: no token; the state is the key.
  if (oauth) app.route('/oauth', oauthPages({ oauth, ...(ui ? { cookieName } : {}) }));
  if (metrics) {
    app.use('/metrics', adminCaller);
    app.get('/metrics', async (c) => {
      const { text, contentType } = await metrics.scrape();
      return c.text(text, 200, { 'content-type': contentType });
    });
  }
  app.route(
    '/',
    createApiRoutes({
      hub,
      config,
      bus,
      ...(heartbeatMs ? { heartbeatMs } : {}),
      ...(writeGuard ? { writeGuard } : {}),
      ...(configWriter ? { writer: configWriter } : {}),
      ...(env ? { env } : {}),
      ...(gateway ? { gateway } : {}),
      ...(db ? { db } : {}),
      ...(auditWritten ? { auditWritten } : {}),
      ...(pins ? { pins } : {}),
      ...(sampling ? { sampling } : {}),
      ...(bots ? { bots } : {}),
      ...(verifyToken ? { verifyToken } : {}),
      ...(keystore ? { keystore } : {}),
      ...(oauth ? { oauth: { oauth, ...(ui ? { cookieName } : {}) } } : {}),
      ...(replica ? { replica } : {}),
      ...(cluster ? { cluster } : {}),
    }),
  );
  return app;
}
