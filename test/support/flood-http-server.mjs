// An MCP server over Streamable HTTP on 127.0.0.1 whose `flood` tool sends `count`
// logging messages on the call's own event stream before it answers (issue 17: the
// notification gate of remote upstreams). Listens on PORT (0: a free one), prints `listening <url>`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveStreamableHttp } from './serve-streamable-http.mjs';

function newSession() {
  const server = new Server({ name: 'flood-http', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'flood', inputSchema: { type: 'object', properties: { count: { type: 'number' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const count = Number(request.params.arguments?.count ?? 0);
    for (let i = 0; i < count; i++)
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `n${i}` } });
    return { content: [{ type: 'text', text: `sent ${count}` }] };
  });
  return { server };
}

serveStreamableHttp({ port: Number(process.env.PORT ?? 0), announce: true, newSession });
