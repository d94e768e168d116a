// A minimal MCP server over Streamable HTTP on 127.0.0.1 with one `echo` tool, one session
// per client (DELETE ends it). Listens on PORT (0: a free one) and prints `listening <url>`.
// With BEARER set, it answers 401 to a request without `Authorization: Bearer $BEARER`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveStreamableHttp } from './serve-streamable-http.mjs';

const echo = {
  name: 'echo',
  description: 'Returns its text argument',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

function newSession() {
  const server = new Server({ name: 'tiny-http', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [echo] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
  }));
  return { server };
}

serveStreamableHttp({ port: Number(process.env.PORT ?? 0), announce: true, bearer: process.env.BEARER, newSession });
