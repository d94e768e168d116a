// An MCP server over stdio whose tool list changes: `add_tool({name})` adds a tool and
// sends notifications/tools/list_changed (it advertises tools.listChanged);
// `add_tool({name, failLists: n})` makes the next n tools/list fail first.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'dynamic', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
const tool = (name, description) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
const tools = new Map([
  [
    'add_tool',
    {
      ...tool('add_tool', 'Adds a tool named after its argument'),
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  ],
]);
let failLists = 0;
server.setRequestHandler(ListToolsRequestSchema, async () => {
  if (failLists > 0) {
    failLists--;
    throw new Error('tools/list failed on purpose');
  }
  return { tools: [...tools.values()] };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name !== 'add_tool') return { content: [{ type: 'text', text: `called ${name}` }] };
  const added = String(args?.name ?? '');
  failLists = Number(args?.failLists ?? 0);
  tools.set(added, tool(added, `Added at run time`));
  await server.sendToolListChanged();
  return { content: [{ type: 'text', text: `added ${added}` }] };
});
await server.connect(new StdioServerTransport());
