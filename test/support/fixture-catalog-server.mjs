// A stdio MCP server listing the tools of one fixture catalog (test/fixtures/tool-catalogs/,
// CATALOG=<name>); a call answers with the tool's name and arguments.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const file = new URL(`../fixtures/tool-catalogs/${process.env.CATALOG}.json`, import.meta.url);
const tools = JSON.parse(readFileSync(file, 'utf8'));
const server = new Server(
  { name: `catalog-${process.env.CATALOG}`, version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [
    { type: 'text', text: `${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}` },
  ],
}));
await server.connect(new StdioServerTransport());
