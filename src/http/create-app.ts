/**
 * The Hono app: `/healthz`, `/readyz`, `/metrics` and the control API under `/api` (SPEC
 * A1, A2, A5, X1, X2, section 7). The MCP endpoints under `/mcp` are served beside it on
 * `node:http` (`mcp-endpoint.ts`, ADR 006), with the same checks. Sees only the Hub, the
 * bus and the gateway, never xstate.
 * @module
 */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { adminTokenVerifier } from '../guard/caller.js';
import type { Hub } from '../hub/create-hub.js';
import type { HubEvent } from '../hub/hub-event.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { Db } from '../storage/create-db.js';
import { auditRoutes } from './audit-routes.js';
import { eventsRoute } from './events-route.js';
import { toErrorResponse } from './http-errors.js';
import { type RateLimiter, rateLimit } from './rate-limit.js';
import { requireOrigin } from './require-origin.js';
import { requireToken } from './require-token.js';
import { type SamplingUsage, serversRoutes } from './servers-routes.js';
import { tokensRoutes } from './tokens-routes.js';

/** What the app needs. */
export type AppDeps = {
  hub: Hub;
  bus: EventBus<HubEvent>;
  log: Logger;
  adminToken: string;
  /** The database, for `/api/tokens`. */
  db?: Db;
  metrics?: Metrics;
  /** Its sessions end when their token is revoked. */
  gateway?: Gateway;
  /** The rate limits, shared with the MCP endpoints; a limiter of its own when absent. */
  limiter?: RateLimiter;
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
  bus,
  log,
  adminToken,
  db,
  metrics,
  gateway,
  port,
  heartbeatMs,
  pins,
  sampling,
  limiter,
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
    const origin = requireOrigin({ port, policy: () => hub.config().http });
    app.use('*', async (c, next) => (c.req.path === '/healthz' ? next() : origin(c, next)));
  }
  // Only /healthz is open (SPEC section 7): readiness and metrics need the token. The
  // control API, readiness and metrics are for the admin token; other tokens reach /mcp only.
  const auth = requireToken({ verify: adminTokenVerifier(adminToken) });
  app.use('/readyz', auth);
  app.get('/readyz', (c) => c.json({ status: 'ready', servers: hub.listServers().length }));
  // Rate limits (X3) after the token check, so the caller is known.
  const limit = rateLimit(limiter ? { limiter } : { limits: () => hub.config().limits });
  app.use('/api/*', auth, limit);
  if (metrics) {
    app.use('/metrics', auth);
    app.get('/metrics', async (c) => {
      const { text, contentType } = await metrics.scrape();
      return c.text(text, 200, { 'content-type': contentType });
    });
  }
  app.get('/api/events', eventsRoute({ hub, bus, ...(heartbeatMs ? { heartbeatMs } : {}) }));
  app.route('/api/servers', serversRoutes({ hub, ...(pins ? { pins } : {}), ...(sampling ? { sampling } : {}) }));
  if (db) {
    const onRevoke = gateway ? (id: string) => gateway.closeSessionsOf(id) : undefined;
    app.route('/api/tokens', tokensRoutes({ db, hub, ...(onRevoke ? { onRevoke } : {}) }));
  }
  if (db) app.route('/api/audit', auditRoutes({ db }));
  return app;
}
