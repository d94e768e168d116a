// A stdio MCP server whose `env` tool answers the value of one of its environment variables:
// shows what a server was started with (a secret read from the keystore, for instance).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'env-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'env', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: String(process.env[String(request.params.arguments?.name)] ?? '(unset)') }],
}));
await server.connect(new StdioServerTransport());
