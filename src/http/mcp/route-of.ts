/**
 * Which MCP endpoint a request path names: `/mcp`, `/mcp/servers/{name}` or `/mcp/bots/{slug}`
 * (the name URL-decoded). Kept apart from the endpoint so that parsing a path stays a pure
 * function of the path, testable and read without the transport around it.
 * @module
 */

/** An MCP endpoint: every server, one server, or one bot's view. */
export type Route = { kind: 'all' } | { kind: 'server'; name: string } | { kind: 'bot'; slug: string };

/** The endpoint a path names, or null. */
export function routeOf(path: string): Route | null {
  if (path === '/mcp') return { kind: 'all' };
  const match = /^\/mcp\/(servers|bots)\/([^/]+)$/.exec(path);
  if (!match?.[2]) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    return null;
  }
  return match[1] === 'servers' ? { kind: 'server', name } : { kind: 'bot', slug: name };
}
