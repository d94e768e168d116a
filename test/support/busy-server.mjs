// A stdio MCP server whose `spin` tool keeps its CPU busy for `ms` without yielding (a
// server parsing a huge request looks the same from outside), and an `echo` tool.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'busy', version: '1.0.0' }, { capabilities: { tools: {} } });
const tools = [
  { name: 'spin', description: 'Busy for ms', inputSchema: { type: 'object', properties: { ms: { type: 'number' } } } },
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
];
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  if (request.params.name === 'echo') return { content: [{ type: 'text', text: String(args.text ?? '') }] };
  const until = performance.now() + Number(args.ms ?? 1_000);
  while (performance.now() < until);
  return { content: [{ type: 'text', text: 'spun' }] };
});
await server.connect(new StdioServerTransport());
