// An MCP server over Streamable HTTP on 127.0.0.1 whose `flood` tool sends `count`
// logging messages on the call's own event stream before it answers (issue 17: the
// notification gate of remote upstreams). Listens on PORT (0: a free one), prints `listening <url>`.
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const sessions = new Map();

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
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  return { server, transport };
}

const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  const body = text ? JSON.parse(text) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
    const made = newSession();
    await made.server.connect(made.transport);
    transport = made.transport;
  }
  if (!transport) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such session"}');
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
});
