#!/usr/bin/env node
// A stdio MCP server listing TOOLS tools (default 200) shaped like real ones: a
// one-sentence description and an object schema with two properties. Low-level SDK Server,
// so listing costs it little. Used by list-tools.mjs.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const count = Number(process.env.TOOLS ?? 200);
const tools = Array.from({ length: count }, (_, i) => ({
  name: `tool_${String(i).padStart(4, '0')}`,
  description: `Looks up record ${i} in the catalogue and returns its fields as text, or an error when it does not exist.`,
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The record id' },
      verbose: { type: 'boolean', description: 'Include every field' },
    },
    required: ['id'],
  },
}));
const server = new Server({ name: 'many-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `${request.params.name}: ok` }],
}));
await server.connect(new StdioServerTransport());
