/**
 * Everything HTTP serves, as one `node:http` listener: the MCP endpoints on `node:http`
 * directly (ADR 006) and the rest through the Hono app, with one rate limiter for both.
 * `main.ts` loads this module after the upstreams are started: none of it is needed to
 * start them, so its loading overlaps with theirs. The MCP endpoints answer at once; the
 * app (the control API with its schemas, the web UI) is loaded from a chunk of its own and
 * built at its first request, or once start-up is over and the service idle (ADR 015 §6,
 * §10: its CPU is not in the way of the upstreams' start, the first call, or later calls).
 * @module
 */
import type { RequestListener } from 'node:http';
import { callerVerifier, type VerifyToken } from '../guard/caller.js';
import { whenIdle } from '../runtime/when-idle.js';
import type { AppDeps } from './create-app.js';
import type { SseBufferPool } from './io/index.js';
import { createSseWriteGuard, writeJson } from './io/index.js';
import { createMcpEndpoint, isMcpUrl, type ListenFleet, type Sealing } from './mcp/index.js';
import { createRateLimiter, type SharedLimiters } from './perimeter/index.js';

/** What the listener needs: the app's deps, with the gateway, and the tokens besides the admin's. */
export type HttpHandlerDeps = Omit<AppDeps, 'limiter' | 'gateway' | 'verifyToken'> & {
  gateway: NonNullable<AppDeps['gateway']>;
  host: string;
  verifyToken: VerifyToken;
  /** The budget every `/mcp` session's resumption buffer shares. */
  buffers?: SseBufferPool;
  /** Sealed session ids, with a cluster key (issue 22, ADR 039). */
  sealing?: Sealing | null;
  /** Replicas on one PostgreSQL: the 2026-07-28 listen streams hear every replica's events (ADR 044). */
  listenFleet?: ListenFleet | null;
  /** Replicas on one PostgreSQL: the rate limits count in the table they share (ADR 042). */
  sharedLimiters?: SharedLimiters;
};

/** How the app is loaded and when it is built unasked. */
export type AppLoading = {
  /** Loads the app's listener (its own chunk); tests may hold it back. */
  load?: () => Promise<typeof import('./listen-app.js')>;
  /** Builds the app (and the MCP 2026-07-28 side) unasked, at the earliest this long after the listener, once the service is idle. */
  prefetchMs?: number;
};

/** The listener; the app's build (started now if not yet); `stop` cancels the build not yet begun. */
export type HttpHandler = { listener: RequestListener; app(): Promise<RequestListener>; stop(): void };

/** Build the listener: the MCP endpoints now, the app when first needed. */
export function createHttpHandler(
  { host, buffers, sealing = null, listenFleet = null, sharedLimiters, ...deps }: HttpHandlerDeps,
  { load = () => import('./listen-app.js'), prefetchMs = 2_000 }: AppLoading = {},
): HttpHandler {
  // One budget for the API and the MCP endpoints (X3).
  const limiter = createRateLimiter({
    limits: () => deps.config().limits,
    ...(sharedLimiters ? { shared: sharedLimiters } : {}),
  });
  // One bound and one count for every SSE stream, /mcp's and /api/events' (X8).
  const writeGuard =
    deps.writeGuard ??
    createSseWriteGuard({
      maxUnsentBytes: () => deps.config().http.maxUnsentBytesPerStream,
      log: deps.log.child({ mod: 'http' }),
    });
  const mcp = createMcpEndpoint({
    gateway: deps.gateway,
    config: deps.config,
    verify: callerVerifier(deps.adminToken, deps.verifyToken),
    limiter,
    ...(buffers ? { buffers } : {}),
    ...(deps.port ? { port: deps.port } : {}),
    log: deps.log.child({ mod: 'http' }),
    writeGuard,
    sealing,
    listenFleet,
  });
  let built: RequestListener | null = null;
  let building: Promise<RequestListener> | null = null;
  const app = () => {
    building ??= load().then(({ appListener }) => {
      built = appListener({ ...deps, limiter, writeGuard }, host);
      return built;
    });
    return building;
  };
  // Once start-up is over and nothing keeps the service busy, what no request asked for yet:
  // the app and the MCP 2026-07-28 side (their loading is not in the middle of calls).
  const stopPrefetch = whenIdle(
    () => {
      mcp.prefetch();
      void app().catch(() => undefined);
    },
    { afterMs: prefetchMs },
  );
  return {
    listener: (req, res) => {
      if (isMcpUrl(req.url ?? '/')) void mcp(req, res);
      else if (built) void built(req, res);
      else
        app().then(
          (listener) => listener(req, res),
          (error: unknown) => {
            deps.log.error({ err: error }, 'the HTTP app failed to load');
            writeJson(res, 500, { error: { code: 'internal', message: 'internal error' } });
          },
        );
    },
    app,
    stop: stopPrefetch,
  };
}
