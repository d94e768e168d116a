/**
 * The gateway's side of a MCP 2026-07-28 view (ADR 013): the view session once admitted,
 * its `subscriptions/listen` streams, and a v2 SDK server per request carrying the endpoint's
 * identity as of that request. Kept apart from `create-gateway.ts` because the modern era has
 * its own per-request server and instructions refresh, which the 2025 sessions never need.
 * @module
 */
import type { Server } from '@modelcontextprotocol/server';
import type { CallPath } from '../requests/index.js';
import type { AgentSession } from '../session/index.js';
import { type EndpointIdentity, endpointIdentity, endpointInstructions, reachedBots } from '../session/index.js';
import type { InputFlows } from './input-flows.js';
import { listenResources } from './listen-resources.js';
import { type ModernViewOptions, openModernView } from './open-modern-view.js';

/** The view of MCP 2026-07-28 requests of one endpoint, token and client (ADR 013). */
export type ModernView = {
  readonly session: AgentSession;
  /** A request of the view came: it is active now (the idle sweep leaves it open). */
  touch(): void;
  /** A v2 SDK server for one request of this view (the endpoint's identity as of now). */
  server(): Server;
  /** Hold the resources a `subscriptions/listen` stream asks about; resolves with their release. */
  listenResources(uris: readonly string[]): Promise<() => Promise<void>>;
};

/** Open the view session of an admitted modern client and serve its requests. */
export async function serveModernView(
  { path, now, flows }: { path: CallPath; now: () => number; flows: InputFlows },
  options: ModernViewOptions,
): Promise<ModernView> {
  // The v2 SDK loads with the first modern request, not at start (ADR 015 §10).
  const { createModernServer } = await import('./serve-modern.js');
  const session = openModernView({ path, now }, options);
  const cacheScope = options.spec.kind === 'server' ? 'public' : 'private';
  const streams = new Map<string, number>();
  // The bots in the instructions: read at open, then again after each request for the
  // next one (a cached read until a bot changes), since the server is made synchronously.
  let bots = await reachedBots(path, options.botAccess);
  const identity = (): EndpointIdentity => {
    const own = endpointIdentity(path, session.spec);
    void reachedBots(path, options.botAccess).then((next) => {
      bots = next;
    });
    return { ...own, instructions: own.instructions ?? endpointInstructions(path, session.spec, bots) };
  };
  return {
    session,
    touch: () => {
      session.lastActivity = now();
    },
    listenResources: (uris) => listenResources(path, session, streams, uris),
    server: () => createModernServer({ path, session, flows, identity: identity(), cacheScope }),
  };
}
