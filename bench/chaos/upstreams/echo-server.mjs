// Shared by the fault upstreams: an SDK server with an `echo` tool over stdio, which each
// fault script extends with the one bad thing it does.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** Create the server; `tools` adds tools as { name: { description, run(args) } }. */
export function createEchoServer({ name, capabilities = {}, tools = {} }) {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {}, ...capabilities } });
  const all = {
    echo: { description: 'Returns its text argument', run: (args) => String(args?.text ?? '') },
    ...tools,
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(all).map(([tool, { description }]) => ({
      name: tool,
      description,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = all[request.params.name];
    if (!tool) throw new Error(`unknown tool ${request.params.name}`);
    return { content: [{ type: 'text', text: await tool.run(request.params.arguments) }] };
  });
  return { server, connect: () => server.connect(new StdioServerTransport()) };
}
