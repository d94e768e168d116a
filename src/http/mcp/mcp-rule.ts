/**
 * What the perimeter asks of a request to the MCP endpoints beyond the Host/Origin check and
 * a token (`admit-request.ts`, ADR 028): any kind of token, but a bot-bound token only on
 * `/mcp` and its own bot's endpoint (G3); the rate limits (X3); `gateway.maxBodyBytes` (X8).
 * @module
 */
import type { EndpointRule } from '../perimeter/index.js';
import { type Route, routeOf } from './route-of.js';

/** The MCP endpoints' rule, with their body limit (read per request: it hot-reloads). */
export function mcpRule(maxBodyBytes: () => number): EndpointRule {
  return {
    forbid: (caller, path) => (caller.kind === 'bot' ? forbiddenToBot(caller.slug, routeOf(path)) : null),
    limited: true,
    maxBodyBytes,
  };
}

/** Why bot `slug`'s token may not use `route`: a single server's endpoint, another bot's; null when it may. */
function forbiddenToBot(slug: string, route: Route | null): string | null {
  if (route?.kind === 'server') return 'a bot token cannot open a single server endpoint; use /mcp';
  if (route?.kind === 'bot' && route.slug !== slug) return `this token belongs to bot "${slug}", not "${route.slug}"`;
  return null;
}
