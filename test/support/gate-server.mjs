// A stdio MCP server whose `fetch` tool answers with the text of a GET of its `url` argument:
// pointed at a test's own HTTP server on 127.0.0.1, the call runs for as long as the test
// holds that request, and answers what the test sends (JSON, an error). `echo` answers at once.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'gate', version: '1.0.0' }, { capabilities: { tools: {} } });
const tools = [
  {
    name: 'fetch',
    description: 'Answers the text at url',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  },
  {
    name: 'echo',
    description: 'Returns its text argument',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
  if (params.name === 'echo') return { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] };
  if (params.name !== 'fetch') throw new Error(`unknown tool ${params.name}`);
  const response = await fetch(String(params.arguments?.url));
  return { content: [{ type: 'text', text: await response.text() }], isError: !response.ok };
});
await server.connect(new StdioServerTransport());
