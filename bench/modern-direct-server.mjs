// A direct MCP 2026-07-28 server for bench/modern-era.mjs: the v2 SDK's createMcpHandler on
// node:http with the one `echo` tool of test/support/tiny-server.mjs. Prints its URL.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';

const echo = {
  name: 'echo',
  description: 'Returns its text argument',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const handler = createMcpHandler(
  () => {
    const server = new Server({ name: 'direct', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools: [echo] }));
    server.setRequestHandler('tools/call', async (request) => ({
      content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
    }));
    return server;
  },
  { legacy: 'reject' },
);
const http = createServer(getRequestListener((request) => handler.fetch(request)));
http.listen(0, '127.0.0.1', () => console.log(`direct http://127.0.0.1:${http.address().port}/mcp`));
