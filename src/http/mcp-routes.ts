/**
 * The Streamable HTTP MCP endpoints for agents (SPEC G1, section 7): `/mcp` (every
 * server, prefixed names), `/mcp/servers/{name}` (one server, names unchanged) and
 * `/mcp/bots/{slug}` (a bot's view). One SDK transport and one gateway session per
 * `Mcp-Session-Id` (the session's id); a session is bound to the endpoint and the token
 * that created it. The gateway's session registry is the only record of sessions.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type Context, Hono } from 'hono';
import type { BotToolsAccess } from '../bots/ports.js';
import { ForbiddenError } from '../errors.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ViewSpec } from '../gateway/effective-servers.js';
import { createMemoryEventStore } from '../gateway/memory-event-store.js';

/** Who a session belongs to: the admin, or the token that opened it. */
const ownerOf = (c: Context): string => {
  const caller = c.get('caller');
  return caller.kind === 'admin' ? 'admin' : `token:${caller.tokenId}`;
};

const rpcError = (c: Context, status: 400 | 404, code: number, message: string) =>
  c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status);

/** Routes mounted at `/mcp`. */
export function mcpRoutes({ gateway }: { gateway: Gateway }): Hono {
  const routes = new Hono();

  /** `specOf` gives the view; `bot` the endpoint's bot, for the bot tools and prompts (G8). */
  const endpoint = (specOf: (c: Context) => ViewSpec, where: 'all' | 'bot' | 'server') =>
    async function mcpEndpoint(c: Context): Promise<Response> {
      const path = c.req.path.replace(/\/+$/, '');
      let body: unknown;
      if (c.req.method === 'POST') body = await c.req.json().catch(() => undefined);
      const parsed = body === undefined ? {} : { parsedBody: body };
      const sessionId = c.req.header('mcp-session-id');
      if (sessionId) {
        const session = gateway.session(sessionId);
        const transport = session?.transport;
        // A session belongs to the endpoint and the token that opened it: another token's
        // request with its id is told there is no such session (X1, G3).
        if (
          !(transport instanceof WebStandardStreamableHTTPServerTransport) ||
          session?.label !== path ||
          session.owner !== ownerOf(c)
        )
          return rpcError(c, 404, -32001, 'Session not found');
        return transport.handleRequest(c.req.raw, parsed);
      }
      if (c.req.method !== 'POST' || !isInitializeRequest(body)) {
        return rpcError(
          c,
          400,
          -32000,
          'Bad Request: no valid Mcp-Session-Id; start a session with an initialize request',
        );
      }
      const id = randomUUID();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        eventStore: createMemoryEventStore(),
      });
      const caller = c.get('caller');
      const spec = specOf(c);
      // The bot tools and skills: every bot's on /mcp (a bot token: its own), the bot's on its endpoint.
      const botAccess: BotToolsAccess | null =
        where === 'server' ? null : spec.kind === 'bot' && where === 'bot' ? { caller, bot: spec.slug } : { caller };
      // An endpoint for a server or bot that does not exist is refused here (404).
      const session = await gateway.openSession({
        id,
        transport,
        spec,
        botAccess,
        label: path,
        owner: ownerOf(c),
        clientId: caller.kind === 'admin' ? 'admin' : caller.tokenId,
      });
      const response = await transport.handleRequest(c.req.raw, parsed);
      // The SDK refused the initialize (a bad Accept or Content-Type): no session came of it.
      if (!transport.sessionId) await session.close();
      return response;
    };

  // The caller's token decides the view (G3): a bot-bound token sees its bot on /mcp, and
  // only its own bot's endpoint; a single server's endpoint is not for bot tokens.
  routes.all(
    '/',
    endpoint((c) => {
      const caller = c.get('caller');
      return caller.kind === 'bot' ? { kind: 'bot', slug: caller.slug } : { kind: 'all' };
    }, 'all'),
  );
  routes.all(
    '/servers/:name',
    endpoint((c) => {
      if (c.get('caller').kind === 'bot')
        throw new ForbiddenError('a bot token cannot open a single server endpoint; use /mcp');
      return { kind: 'server', server: c.req.param('name') ?? '' };
    }, 'server'),
  );
  routes.all(
    '/bots/:slug',
    endpoint((c) => {
      const caller = c.get('caller');
      const slug = c.req.param('slug') ?? '';
      if (caller.kind === 'bot' && caller.slug !== slug)
        throw new ForbiddenError(`this token belongs to bot "${caller.slug}", not "${slug}"`);
      return { kind: 'bot', slug };
    }, 'bot'),
  );
  return routes;
}
