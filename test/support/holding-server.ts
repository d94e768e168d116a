/**
 * An in-process upstream for the in-flight caps' tests: its `hold` calls record who came
 * and wait until the test releases them (`held`, first in first out); `echo` answers at
 * once. `hold` takes an optional `blob`, so a test can make a call large.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A fresh holding server writing into `arrived` and `held`. */
export function holdingServer(arrived: string[], held: (() => void)[]): McpServer {
  const server = new McpServer({ name: 'holding', version: '1.0.0' });
  server.registerTool(
    'hold',
    { description: 'waits until released', inputSchema: { who: z.string(), blob: z.string().optional() } },
    async ({ who }) => {
      arrived.push(who);
      await new Promise<void>((resolve) => held.push(resolve));
      return { content: [{ type: 'text', text: `done ${who}` }] };
    },
  );
  server.registerTool(
    'echo',
    { description: 'answers at once', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  return server;
}
