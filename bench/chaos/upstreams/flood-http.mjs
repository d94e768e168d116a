// Fault upstream over Streamable HTTP on 127.0.0.1: an `echo` tool, and once a client has
// opened its GET stream, `notifications/message` (1 KB each) on it at FLOOD_RATE a second
// (default 5,000; HTTP has no pipe to push back, so the rate is set). Prints `listening <url>`.
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const RATE = Number(process.env.FLOOD_RATE ?? 5_000);
const TICK_MS = 10;
const filler = 'x'.repeat(1_000);
const echo = {
  name: 'echo',
  description: 'Returns its text argument',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
};
const sessions = new Map();

function newSession() {
  const server = new Server({ name: 'flood-http', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [echo] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
  }));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, transport),
  });
  let timer = null;
  transport.onclose = () => {
    clearInterval(timer);
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  // Sent without a related request: they go on the GET stream (dropped by the SDK until it is open).
  server.oninitialized = () => {
    timer = setInterval(() => {
      for (let i = 0; i < (RATE * TICK_MS) / 1_000; i++)
        server.sendLoggingMessage({ level: 'info', data: filler }).catch(() => undefined);
    }, TICK_MS);
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
