/** server-everything ships no types: what the in-process tests use of its server factory. */
declare module '@modelcontextprotocol/server-everything/dist/server/index.js' {
  import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

  /** A new server-everything and the function that stops its timers for a session. */
  export function createServer(): { server: McpServer; cleanup(sessionId?: string): void };
}
