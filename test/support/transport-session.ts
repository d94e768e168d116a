/**
 * One MCP session served by boternity's own Streamable HTTP transport, on real HTTP at
 * 127.0.0.1, with an SDK `McpServer` behind it whose tools exercise every way a message
 * travels: a plain answer, progress, a logging message, a server-to-client request on the
 * call's stream, a call held open until the test lets it go, and one that asks the client
 * to reconnect (SEP-1699 polling).
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { McpHttpTransport, type McpHttpTransportOptions } from '../../src/http/mcp/mcp-transport.js';

/** A call the test releases: `held` resolves once the tool is running, `release()` lets it answer. */
export type Gate = { held: Promise<void>; release(): void };

function gate(): Gate & { entered(): void; open: Promise<void> } {
  let entered = () => {};
  let release = () => {};
  const held = new Promise<void>((r) => {
    entered = r;
  });
  const open = new Promise<void>((r) => {
    release = r;
  });
  return { held, release, entered, open };
}

/** Serve one session; `close()` ends the transport and the HTTP server. */
export async function startTransportSession(options: McpHttpTransportOptions = {}) {
  const transport = new McpHttpTransport(options);
  const server = new McpServer(
    { name: 'transport-test', version: '1.0.0' },
    { capabilities: { logging: {}, tools: { listChanged: true } } },
  );
  let current = gate();
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('progress', { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: i, total: steps },
        });
      }
    }
    return { content: [{ type: 'text', text: `done ${steps}` }] };
  });
  server.registerTool('ask', { inputSchema: { question: z.string() } }, async ({ question }, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 10 },
      },
      CreateMessageResultSchema,
    );
    return { content: [{ type: 'text', text: `sampled: ${JSON.stringify(answer.content)}` }] };
  });
  // A result `_meta` nested deeper than JSON.stringify can write: the answer cannot be serialized.
  server.registerTool('deep', { inputSchema: {} }, async () => {
    let meta: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) meta = { a: meta };
    return { content: [{ type: 'text', text: 'deep' }], _meta: meta };
  });
  server.registerTool('held', { inputSchema: {} }, async (_args, extra) => {
    const mine = current;
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'holding' } });
    mine.entered();
    await mine.open;
    return { content: [{ type: 'text', text: 'released' }] };
  });
  server.registerTool('silent', { inputSchema: {} }, async () => {
    const mine = current;
    mine.entered();
    await mine.open;
    return { content: [{ type: 'text', text: 'spoke at last' }] };
  });
  server.registerTool('poll', { inputSchema: {} }, async (_args, extra) => {
    const mine = current;
    extra.closeSSEStream?.();
    mine.entered();
    await mine.open;
    return { content: [{ type: 'text', text: 'after reconnect' }] };
  });
  await server.connect(transport);
  const http = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    transport,
    server,
    /** A fresh gate for the next `held`, `silent` or `poll` call. */
    nextGate(): Gate {
      current = gate();
      return current;
    },
    async close() {
      await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
