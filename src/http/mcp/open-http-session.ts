/**
 * Opening a 2025-11-25 session of the MCP endpoints: its transport (made here, kept by the
 * endpoint under its id) and its gateway session on it; for an `initialize`, or for a sealed
 * id another replica opened (`restore-session.ts`). Who owns a session and which view a
 * caller gets on a route are decided here too.
 * @module
 */
import type { BotToolsAccess } from '../../bots/ports.js';
import type { AppConfig } from '../../config/schema.js';
import type { Gateway } from '../../gateway/index.js';
import type { ViewSpec } from '../../gateway/views/index.js';
import type { Caller } from '../../guard/caller.js';
import type { SseBufferPool, SseWriteGuard } from '../io/index.js';
import { McpHttpTransport } from './mcp-transport.js';
import type { Route } from './route-of.js';
import type { createMessageSerializer } from './serialize-message.js';
import { sessionRefusal } from './session-refusal.js';
import type { FleetRelay } from './session-relay.js';
import { createSseEventLog } from './sse-event-log.js';

/** Who a session belongs to: the admin, or the token that opened it. */
export const ownerOf = (caller: Caller): string => (caller.kind === 'admin' ? 'admin' : `token:${caller.tokenId}`);

/** A session as the endpoint keeps it: its transport, and the endpoint and owner it is bound to. */
export type HttpSession = { readonly transport: McpHttpTransport; readonly path: string; readonly owner: string };

/** What opening needs of the endpoint. */
export type HttpSessionOpenerDeps = {
  gateway: Gateway;
  config: () => AppConfig;
  /** The endpoint's sessions by id: a session is put there once initialized, and leaves when it closes. */
  sessions: Map<string, HttpSession>;
  serialize: ReturnType<typeof createMessageSerializer>;
  writeGuard: SseWriteGuard;
  buffers?: SseBufferPool;
  /** Cluster mode: what crosses replicas (`session-relay.ts`). */
  relay?: FleetRelay | null;
};

/** The opener of an endpoint's sessions. */
export function createHttpSessionOpener({
  gateway,
  config,
  sessions,
  serialize,
  writeGuard,
  buffers,
  relay = null,
}: HttpSessionOpenerDeps) {
  /**
   * A session's transport and its gateway session, `id` reachable once initialized: an
   * endpoint for a server or bot that does not exist is refused (404), so is one over a cap
   * or while stopping (a refusal, not a session).
   */
  return async (
    id: string,
    path: string,
    route: Route,
    caller: Caller,
    clientInfo: { name: string; version: string } | undefined,
    /** A sealed session of the fleet rebuilt here: admitted where it opened. */
    restored = false,
  ) => {
    const owner = ownerOf(caller);
    const { maxBufferBytesPerSession } = config().gateway;
    const sessionRelay = relay?.forSession(id);
    const eventLog = createSseEventLog({
      maxBytes: maxBufferBytesPerSession,
      ...(buffers ? { pool: buffers } : {}),
      // Cluster mode: event ids name this replica, so another tells them from its own, and a
      // POST's stream is kept for a resumption there (ADR 039 §5).
      ...(relay && sessionRelay ? { tag: relay.tag, onRequestEvent: sessionRelay.loggedInRequest } : {}),
    });
    const transport: McpHttpTransport = new McpHttpTransport({
      maxBodyBytes: config().gateway.maxBodyBytes,
      serialize,
      newSessionId: () => id,
      eventLog,
      writeGuard,
      ...(sessionRelay ? { relay: sessionRelay } : {}),
      // Reachable by its id once its initialize is accepted, until it closes (however it closes).
      onSessionInitialized: () => {
        sessions.set(id, { transport, path, owner });
        relay?.hold(id, transport);
      },
      onSessionClosed: () => {
        sessions.delete(id);
        relay?.drop(id);
      },
    });
    const spec = specOf(route, caller);
    const session = await gateway
      .openSession({
        id,
        transport,
        spec,
        botAccess: botAccessOf(route, spec, caller),
        label: path,
        owner,
        clientId: caller.kind === 'admin' ? 'admin' : caller.tokenId,
        // Named from the start, so the session's first audit row says which client opened it.
        clientInfo: clientInfo ?? null,
        restored,
      })
      .catch((error: unknown) => {
        eventLog.dispose();
        const refusal = sessionRefusal(error);
        if (refusal) return refusal;
        throw error;
      });
    return { transport, session };
  };
}

/** The bot tools and skills: every bot's on /mcp (a bot token: its own), the bot's on its endpoint. */
export function botAccessOf(route: Route, spec: ViewSpec, caller: Caller): BotToolsAccess | null {
  if (route.kind === 'server') return null;
  return route.kind === 'bot' && spec.kind === 'bot' ? { caller, bot: spec.slug } : { caller };
}

/**
 * The view a caller gets on a route (G3): a bot-bound token sees its bot on `/mcp`; the
 * perimeter has refused it every other endpoint but its own bot's (`mcp-rule.ts`).
 */
export function specOf(route: Route, caller: Caller): ViewSpec {
  switch (route.kind) {
    case 'all':
      return caller.kind === 'bot' ? { kind: 'bot', slug: caller.slug } : { kind: 'all' };
    case 'server':
      return { kind: 'server', server: route.name };
    case 'bot':
      return { kind: 'bot', slug: route.slug };
  }
}
