#!/usr/bin/env node
// The stdio MCP server the code cache's training run connects (scripts/train-code-cache.mjs,
// ADR 033): one `echo` tool, so that the service compiles what connecting a server and
// relaying a call run.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'train', version: '1.0.0' }, { capabilities: { tools: {} } });
const echo = {
  name: 'echo',
  description: 'Returns its input text unchanged.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [echo] }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
}));
await server.connect(new StdioServerTransport());
