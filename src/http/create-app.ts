/**
 * The Hono app: `/healthz`, `/readyz`, `/metrics`, the control API under `/api` and the
 * MCP endpoints under `/mcp` (SPEC A1, A2, A5, G1, X1, X2, section 7). Sees only the Hub,
 * the bus and the gateway, never xstate.
 * @module
 */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { AppConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { adminTokenVerifier, type VerifyToken } from '../guard/caller.js';
import type { Hub } from '../hub/create-hub.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { Db } from '../storage/create-db.js';
import { auditRoutes } from './audit-routes.js';
import { eventsRoute } from './events-route.js';
import { toErrorResponse } from './http-errors.js';
import { mcpRoutes } from './mcp-routes.js';
import { rateLimit } from './rate-limit.js';
import { requireOrigin } from './require-origin.js';
import { requireToken } from './require-token.js';
import { type SamplingUsage, serversRoutes } from './servers-routes.js';
import { tokensRoutes } from './tokens-routes.js';

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
  /** The database, for `/api/tokens`. */
  db?: Db;
  metrics?: Metrics;
  /** Serves `/mcp`, `/mcp/servers/{name}` and `/mcp/bots/{slug}`. */
  gateway?: Gateway;
  /** The port listened on: turns on the Host/Origin check (off for in-process tests). */
  port?: () => number;
  heartbeatMs?: number;
  /** The rug-pull pin guard, for `POST /api/servers/{name}/tools/{tool}/approve`. */
  pins?: { approve(server: string, tool: string, expectedHash?: string): Promise<boolean> };
  /** Sampling usage per server and its reset (X6). */
  sampling?: SamplingUsage;
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
  metrics,
  gateway,
  port,
  heartbeatMs,
  pins,
  sampling,
}: AppDeps): Hono {
  const app = new Hono();
  const httpLog = log.child({ mod: 'http' });
  app.onError((error, c) => toErrorResponse(error, c, httpLog));
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` } }, 404),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  if (port) {
    // DNS-rebinding defence before anything else, on every route but /healthz (X2).
    const origin = requireOrigin({ port, policy: () => config().http });
    app.use('*', async (c, next) => (c.req.path === '/healthz' ? next() : origin(c, next)));
  }
  // Only /healthz is open (SPEC section 7): readiness and metrics need the token.
  const admin = adminTokenVerifier(adminToken);
  const anyCaller = requireToken({ verify: async (token) => admin(token) ?? (await verifyToken?.(token)) ?? null });
  // The control API, readiness and metrics are for the admin token; bot tokens reach /mcp only.
  const auth = requireToken({ verify: admin });
  app.use('/readyz', auth);
  app.get('/readyz', (c) => c.json({ status: 'ready', servers: hub.listServers().length }));
  // Rate limits (X3) after the token check, so the caller is known.
  const limit = rateLimit({ limits: () => config().limits });
  app.use('/api/*', auth, limit);
  if (metrics) {
    app.use('/metrics', auth);
    app.get('/metrics', async (c) =>
      c.text(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
    );
  }
  app.get('/api/events', eventsRoute({ hub, bus, ...(heartbeatMs ? { heartbeatMs } : {}) }));
  app.route(
    '/api/servers',
    serversRoutes({ hub, config, ...(pins ? { pins } : {}), ...(sampling ? { sampling } : {}) }),
  );
  if (db) {
    const onRevoke = gateway ? (id: string) => gateway.closeSessionsOf(id) : undefined;
    app.route('/api/tokens', tokensRoutes({ db, config, ...(onRevoke ? { onRevoke } : {}) }));
  }
  if (db) app.route('/api/audit', auditRoutes({ db }));
  if (gateway) {
    app.use('/mcp', anyCaller, limit);
    app.use('/mcp/*', anyCaller, limit);
    app.route('/mcp', mcpRoutes({ gateway }));
  }
  return app;
}
