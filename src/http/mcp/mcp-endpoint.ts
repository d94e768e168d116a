/**
 * The Streamable HTTP MCP endpoints for agents (SPEC G1, section 7), served on `node:http`
 * beside the Hono app (ADR 006): `/mcp` (every server, prefixed names),
 * `/mcp/servers/{name}` (one server, names unchanged) and `/mcp/bots/{slug}` (a bot's
 * view). In front, the perimeter the API passes too (`admit-request.ts`, ADR 028): the
 * Host/Origin check (X2), the bearer token and its kind (X1, G3), the rate limits (X3, one
 * budget with `/api`), the body limit (X8); then a POST's share of its token's body budget.
 * This endpoint makes each session's transport and keeps it, with the endpoint and the owner
 * it is bound to, under its `Mcp-Session-Id` (the gateway session's id); the gateway serves
 * the session on it and hands nothing back (ADR 028).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { classifyInboundRequest } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/schema.js';
import type { Gateway } from '../../gateway/index.js';
import type { VerifyToken } from '../../guard/caller.js';
import type { SseBufferPool } from '../io/index.js';
import {
  closeAfterLinger,
  createSseWriteGuard,
  type RpcRefusal,
  readJsonBody,
  type SseWriteGuard,
  writeJson,
  writeRefusal,
} from '../io/index.js';
import {
  createBodyBudget,
  createPerimeter,
  errorReply,
  holdBody,
  isRefusal,
  nodeRequestOf,
  type PerimeterRefusal,
  type RateLimiter,
  requestIdOf,
  writePerimeterRefusal,
} from '../perimeter/index.js';
import { SESSION_NOT_FOUND } from './check-mcp-session.js';
import type { ListenFleet } from './fleet-listen.js';
import type { ModernEndpoint } from './mcp-modern.js';
import { mcpRule } from './mcp-rule.js';
import { botAccessOf, createHttpSessionOpener, type HttpSession, ownerOf, specOf } from './open-http-session.js';
import { tooLarge } from './read-mcp-post.js';
import { createSessionRestorer, type Sealing, sealedInitialize } from './restore-session.js';
import { routeOf } from './route-of.js';
import { sessionIdDigest } from './sealed-session-id.js';
import { createMessageSerializer } from './serialize-message.js';
import { sessionRefusal } from './session-refusal.js';
import { createFleetRelay } from './session-relay.js';

/** What the endpoints need. */
export type McpEndpointDeps = {
  gateway: Gateway;
  /** The config in force (body limit, allowed hosts and origins). */
  config: () => AppConfig;
  /** Maps a bearer token to its caller (the admin token and issued tokens). */
  verify: VerifyToken;
  /** The limiter the API uses too. */
  limiter: RateLimiter;
  /** The budget the sessions' resumption buffers share (X8); absent: each is bounded alone. */
  buffers?: SseBufferPool;
  /** The port listened on: turns on the Host/Origin check (off for in-process tests). */
  port?: () => number;
  /** The bound on an SSE stream's unsent bytes, shared with `/api/events` (X8); absent: one of its own. */
  writeGuard?: SseWriteGuard;
  /** A cluster key's seal (issue 22, ADR 039): session ids carry their session, any replica rebuilds it. */
  sealing?: Sealing | null;
  /** Cluster mode: the 2026-07-28 listen streams hear every replica's events (ADR 044). */
  listenFleet?: ListenFleet | null;
  log: Logger;
};

/** A `node:http` handler for every path under `/mcp`; `prefetch` loads its MCP 2026-07-28 side unasked. */
export type McpEndpoint = ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & { prefetch(): void };

/** The MCP 2026-07-28 side of the endpoints: the v2 SDK's classifier and the modern endpoint. */
type ModernSide = { readonly classify: typeof classifyInboundRequest; readonly endpoint: ModernEndpoint };

/** Whether a request URL is for the MCP endpoints (anything under `/mcp`). */
export const isMcpUrl = (url: string): boolean =>
  url.startsWith('/mcp') && (url.length === 4 || url[4] === '/' || url[4] === '?');

const NO_SESSION: RpcRefusal = {
  status: 400,
  code: -32000,
  message: 'Bad Request: no valid Mcp-Session-Id; start a session with an initialize request',
};

/** Create the handler; sessions live in it until they close. */
export function createMcpEndpoint({
  gateway,
  config,
  verify,
  limiter,
  buffers,
  port,
  log,
  writeGuard = createSseWriteGuard({ maxUnsentBytes: () => config().http.maxUnsentBytesPerStream, log }),
  sealing = null,
  listenFleet = null,
}: McpEndpointDeps): McpEndpoint {
  const maxBodyBytes = () => config().gateway.maxBodyBytes;
  const perimeter = createPerimeter({ verify, limiter, policy: () => config().http, port });
  const rule = mcpRule(maxBodyBytes);
  // The sessions of these endpoints, by id: each bound to the endpoint and the owner that opened it.
  const sessions = new Map<string, HttpSession>();
  // What each token's POST bodies hold of the service at once (ADR 022 §6).
  const bodies = createBodyBudget();
  // Sessions of one view list the same arrays: serialize them once for all.
  const serialize = createMessageSerializer();
  // The v2 SDK (MCP 2026-07-28) builds its schemas at import: it loads when a sessionless
  // request first needs it, or soon after start-up, not on the first call's path (ADR 015 §10).
  let modernSide: Promise<ModernSide> | null = null;
  const modern = (): Promise<ModernSide> => {
    modernSide ??= Promise.all([import('@modelcontextprotocol/server'), import('./mcp-modern.js')]).then(
      ([{ classifyInboundRequest }, { createModernEndpoint }]) => ({
        classify: classifyInboundRequest,
        endpoint: createModernEndpoint({ gateway, maxBodyBytes, writeGuard, log, fleet: listenFleet }),
      }),
    );
    return modernSide;
  };

  /** Answer a refusal of the perimeter; a rate-limited request's JSON-RPC error carries its id. */
  const refuse = async (req: IncomingMessage, res: ServerResponse, refused: PerimeterRefusal): Promise<void> => {
    if (refused.closes) closeAfterLinger(req, res);
    const body =
      refused.status === 429 && req.method === 'POST'
        ? await readJsonBody(req, maxBodyBytes()).catch(() => null)
        : null;
    writePerimeterRefusal(res, refused, body?.ok ? requestIdOf(body.value) : null);
  };

  // Cluster mode: answers, cancellations and session changes that land here but are another replica's (ADR 039 §3).
  const relay = sealing?.relay ? createFleetRelay({ ...sealing.relay, log }) : null;
  const openHttpSession = createHttpSessionOpener({
    gateway,
    config,
    sessions,
    serialize,
    writeGuard,
    relay,
    ...(buffers ? { buffers } : {}),
  });
  // A DELETE on another replica ends this replica's copy at once (the fleet bus, ADR 039).
  const stopNotices = sealing?.notices?.subscribe((digest) => {
    for (const [id, held] of sessions)
      if (id.startsWith('v1.') && sessionIdDigest(id) === digest) void held.transport.close();
  });
  stopNotices?.catch((error: unknown) => log.warn({ err: error }, 'closed sessions not followed on the fleet bus'));
  const restorer = createSessionRestorer({
    sealing,
    open: async (id, path, caller, initialize) => {
      const route = routeOf(path);
      if (!route) return null;
      const opened = await openHttpSession(id, path, route, caller, initialize.clientInfo, true);
      if ('status' in opened.session) return opened.session;
      opened.transport.restore(id, initialize);
      // What its client changed since it opened (log level, subscriptions) holds here too.
      await relay?.replay(id, opened.transport);
      return sessions.get(id) ?? null;
    },
  });

  const serve = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const admitted = await perimeter.admitRequest(nodeRequestOf(req, path), rule);
    if (isRefusal(admitted)) return refuse(req, res, admitted);
    const { caller } = admitted;
    // A POST holds its body's bytes of its token's budget until answered; it waits its turn, unread.
    if (req.method === 'POST') {
      const { bodyBytesPerToken: maxBytes, queuePerToken: maxWaiting } = config().limits.inFlight;
      const held = holdBody(
        bodies,
        { req, res, key: ownerOf(caller) },
        { maxBytes, maxWaiting, maxBodyBytes: maxBodyBytes() },
      );
      const over = held instanceof Promise ? await held : held;
      if (over) return writeRefusal(res, over.refusal, { data: over.data });
    }
    const route = routeOf(path);
    if (!route) {
      return writeJson(res, 404, { error: { code: 'not_found', message: `no route for ${req.method} ${path}` } });
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string' && sessionId !== '') {
      // A sealed id this replica does not hold: rebuilt here, if it is one of the cluster's (ADR 039).
      const session = sessions.get(sessionId) ?? (sealing && (await restorer.take(req, res, sessionId, path, caller)));
      if (session === 'answered') return;
      // Another endpoint's or another token's session id: there is no such session for it (X1, G3).
      if (!session || session.path !== path || session.owner !== ownerOf(caller))
        return writeRefusal(res, SESSION_NOT_FOUND);
      if (sealing && (await restorer.endedElsewhere(session, sessionId))) {
        await session.transport.close();
        return writeRefusal(res, SESSION_NOT_FOUND);
      }
      if (req.method === 'DELETE' && sealing) {
        const digest = sessionIdDigest(sessionId);
        await sealing.closed.close(digest);
        sealing.notices?.publish(digest);
      }
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return writeRefusal(res, NO_SESSION);
    const body = await readJsonBody(req, maxBodyBytes());
    if (!body.ok && body.reason === 'too_large') {
      closeAfterLinger(req, res);
      return writeRefusal(res, tooLarge(maxBodyBytes()));
    }
    if (!body.ok) return writeRefusal(res, NO_SESSION);
    const owner = ownerOf(caller);
    const clientId = caller.kind === 'admin' ? 'admin' : caller.tokenId;
    if (!isInitializeRequest(body.value)) {
      // No session and no handshake: MCP 2026-07-28 (ADR 013), or a 2025 request without its session.
      const side = await modern();
      const era = side.classify({
        httpMethod: 'POST',
        protocolVersionHeader: header(req, 'mcp-protocol-version'),
        mcpMethodHeader: header(req, 'mcp-method'),
        mcpNameHeader: header(req, 'mcp-name'),
        body: body.value,
      });
      if (era.kind === 'legacy') return writeRefusal(res, NO_SESSION);
      if (era.kind === 'reject') {
        const refusal = { status: era.httpStatus, code: era.code, message: era.message };
        return writeRefusal(res, refusal, { id: requestIdOf(body.value), data: era.data });
      }
      const spec = specOf(route, caller);
      const who = { spec, botAccess: botAccessOf(route, spec, caller), label: path, owner, clientId, path };
      // Its view session opens through the same caps as a session (X8), and not while stopping.
      return side.endpoint.serve(req, res, who, body.value).catch((error: unknown) => {
        const refusal = sessionRefusal(error);
        if (!refusal || res.headersSent) throw error;
        writeRefusal(res, refusal, { id: requestIdOf(body.value), data: refusal.data });
      });
    }
    const id = sealing
      ? sealing.seal.seal({ path, owner, initialize: sealedInitialize(body.value.params), openedAt: Date.now() })
      : randomUUID();
    const { transport, session } = await openHttpSession(id, path, route, caller, body.value.params.clientInfo);
    // A view that does not exist answers the initialize (its id); a cap refusal answers no request in particular.
    if ('status' in session)
      return writeRefusal(res, session, session.data ? { id: requestIdOf(body.value), data: session.data } : {});
    await transport.handleRequest(req, res, body.value);
    // The initialize was refused (a bad Accept or Content-Type): no session came of it.
    if (!transport.sessionId) await session.close();
  };

  const endpoint = async function mcpEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = (query < 0 ? url : url.slice(0, query)).replace(/\/+$/, '');
    try {
      await serve(req, res, path);
    } catch (error) {
      const reply = errorReply(error);
      if (!reply) log.error({ err: error, path }, 'request failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (reply) writeJson(res, reply.status, reply.body, reply.headers);
      else writeJson(res, 500, { error: { code: 'internal', message: 'internal error' } });
    }
  };
  return Object.assign(endpoint, {
    prefetch: () => void modern().catch((error: unknown) => log.error({ err: error }, 'MCP 2026-07-28 failed to load')),
  });
}

/** A header's single value. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
