/**
 * Everything HTTP serves, as one `node:http` listener: the MCP endpoints on `node:http`
 * directly (ADR 006) and the rest through the Hono app, with one rate limiter for both.
 * `main.ts` loads this module after the upstreams are started: none of it is needed to
 * start them, so its loading overlaps with theirs.
 * @module
 */
import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { callerVerifier, type VerifyToken } from '../guard/caller.js';
import { type AppDeps, createApp } from './create-app.js';
import { createMcpEndpoint, isMcpUrl } from './mcp-endpoint.js';
import { createRateLimiter } from './rate-limit.js';
import type { SseBufferPool } from './sse-buffer-pool.js';

/** What the listener needs: the app's deps, with the gateway, and the tokens besides the admin's. */
export type HttpHandlerDeps = Omit<AppDeps, 'limiter' | 'gateway' | 'verifyToken'> & {
  gateway: NonNullable<AppDeps['gateway']>;
  host: string;
  verifyToken: VerifyToken;
  /** The budget every `/mcp` session's resumption buffer shares. */
  buffers?: SseBufferPool;
};

/** Build the listener. */
export function createHttpHandler({ host, buffers, ...deps }: HttpHandlerDeps): RequestListener {
  // One budget for the API and the MCP endpoints (X3).
  const limiter = createRateLimiter({ limits: () => deps.config().limits });
  const app = getRequestListener(createApp({ ...deps, limiter }).fetch, { hostname: host });
  const mcp = createMcpEndpoint({
    gateway: deps.gateway,
    config: deps.config,
    verify: callerVerifier(deps.adminToken, deps.verifyToken),
    limiter,
    ...(buffers ? { buffers } : {}),
    ...(deps.port ? { port: deps.port } : {}),
    log: deps.log.child({ mod: 'http' }),
  });
  return (req, res) => {
    if (isMcpUrl(req.url ?? '/')) void mcp(req, res);
    else void app(req, res);
  };
}
