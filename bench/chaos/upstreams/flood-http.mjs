// Fault upstream over Streamable HTTP on 127.0.0.1: an `echo` tool, and once a client has
// opened its GET stream, `notifications/message` (1 KB each) on it at FLOOD_RATE a second
// (default 5,000; HTTP has no pipe to push back, so the rate is set). Prints `listening <url>`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveStreamableHttp } from '../../../test/support/serve-streamable-http.mjs';

const RATE = Number(process.env.FLOOD_RATE ?? 5_000);
const TICK_MS = 10;
const filler = 'x'.repeat(1_000);
const echo = {
  name: 'echo',
  description: 'Returns its text argument',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
};

function newSession() {
  const server = new Server({ name: 'flood-http', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [echo] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
  }));
  let timer = null;
  // Sent without a related request: they go on the GET stream (dropped by the SDK until it is open).
  server.oninitialized = () => {
    timer = setInterval(() => {
      for (let i = 0; i < (RATE * TICK_MS) / 1_000; i++)
        server.sendLoggingMessage({ level: 'info', data: filler }).catch(() => undefined);
    }, TICK_MS);
  };
  return { server, onClose: () => clearInterval(timer) };
}

serveStreamableHttp({ port: Number(process.env.PORT ?? 0), announce: true, newSession });
