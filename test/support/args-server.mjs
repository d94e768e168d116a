// A stdio MCP server whose tools answer the arguments they were given, as JSON: `anything`
// (a bare {"type":"object"} schema: any arguments), `combo` (its properties under allOf) and
// `say` (one required string), for the test form's raw JSON mode.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = [
  { name: 'anything', description: 'Answers its arguments', inputSchema: { type: 'object' } },
  {
    name: 'combo',
    description: 'Answers its arguments; its schema is an allOf',
    inputSchema: { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }, { required: ['a'] }] },
  },
  {
    name: 'say',
    description: 'Answers its arguments; text is required',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];
const server = new Server({ name: 'args', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `args: ${JSON.stringify(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
