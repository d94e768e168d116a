// A stdio MCP server with an `echo` tool that, once initialized, writes GARBAGE_LINES
// (default 300) lines of garbage to stdout: text, broken JSON, JSON that is not JSON-RPC.
// For the rate-limited warnings test (issue 17).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'garbage', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
}));
const lines = [
  'this is not json',
  '{"jsonrpc":"2.0","id":',
  '{"hello":"world"}',
  '[1,2,3]',
  '{"jsonrpc":"2.0","method":5}',
];
// Written before the answer to whatever comes after `initialized`: read before it, in order.
server.oninitialized = () => {
  for (let i = 0; i < Number(process.env.GARBAGE_LINES ?? 300); i++)
    process.stdout.write(`${lines[i % lines.length]}\n`);
};
await server.connect(new StdioServerTransport());
