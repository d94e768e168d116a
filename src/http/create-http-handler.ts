/**
 * Everything HTTP serves, as one `node:http` listener: the MCP endpoints on `node:http`
 * directly (ADR 006) and the rest through the Hono app, with one rate limiter for both.
 * `main.ts` loads this module after the upstreams are started: none of it is needed to
 * start them, so its loading overlaps with theirs. The MCP endpoints answer first; the app
 * (the control API with its schemas, the web UI) is loaded from a chunk of its own and
 * built after them (ADR 015: time to first call), 503 "starting" until then.
 * @module
 */
import type { RequestListener } from 'node:http';
import { callerVerifier, type VerifyToken } from '../guard/caller.js';
import type { AppDeps } from './create-app.js';
import { createMcpEndpoint, isMcpUrl } from './mcp-endpoint.js';
import { createRateLimiter } from './rate-limit.js';
import { answerStarting } from './serve-http.js';
import type { SseBufferPool } from './sse-buffer-pool.js';

/** What the listener needs: the app's deps, with the gateway, and the tokens besides the admin's. */
export type HttpHandlerDeps = Omit<AppDeps, 'limiter' | 'gateway' | 'verifyToken'> & {
  gateway: NonNullable<AppDeps['gateway']>;
  host: string;
  verifyToken: VerifyToken;
  /** The budget every `/mcp` session's resumption buffer shares. */
  buffers?: SseBufferPool;
};

/** Loads the app's listener (its own chunk); tests may hold it back. */
export type LoadApp = () => Promise<typeof import('./listen-app.js')>;

/** The listener, serving `/mcp` at once, and the promise that the rest is served too. */
export type HttpHandler = { listener: RequestListener; ready: Promise<void> };

/** Build the listener: the MCP endpoints now, the app once its chunk is loaded. */
export function createHttpHandler(
  { host, buffers, ...deps }: HttpHandlerDeps,
  loadApp: LoadApp = () => import('./listen-app.js'),
): HttpHandler {
  // One budget for the API and the MCP endpoints (X3).
  const limiter = createRateLimiter({ limits: () => deps.config().limits });
  const mcp = createMcpEndpoint({
    gateway: deps.gateway,
    config: deps.config,
    verify: callerVerifier(deps.adminToken, deps.verifyToken),
    limiter,
    ...(buffers ? { buffers } : {}),
    ...(deps.port ? { port: deps.port } : {}),
    log: deps.log.child({ mod: 'http' }),
  });
  let app: RequestListener = answerStarting;
  const ready = loadApp().then(({ appListener }) => {
    app = appListener({ ...deps, limiter }, host);
  });
  return {
    listener: (req, res) => {
      if (isMcpUrl(req.url ?? '/')) void mcp(req, res);
      else void app(req, res);
    },
    ready,
  };
}
