// An MCP server over stdio with many tools (MANY_TOOLS, default 300), each with a description
// and an input schema of several kinds of field, for the tool inventory's scale tests: names
// like `read_file_7` and `search_ticket_42`, so a filter has words to match. `call` of any of
// them answers its name and arguments as text.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const VERBS = ['read', 'write', 'list', 'search', 'delete', 'move', 'copy', 'watch', 'lock', 'tag'];
const SAYS = ['Reads', 'Writes', 'Lists', 'Searches', 'Deletes', 'Moves', 'Copies', 'Watches', 'Locks', 'Tags'];
const NOUNS = ['file', 'issue', 'page', 'record', 'user', 'ticket', 'branch', 'invoice', 'note', 'image'];
const count = Number(process.env.MANY_TOOLS ?? 300);
const tools = Array.from({ length: count }, (_, i) => {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
  return {
    name: `${verb}_${noun}_${i + 1}`,
    description: `${SAYS[i % VERBS.length]} ${/^[aeio]/.test(noun) ? 'an' : 'a'} ${noun} of the store, number ${i + 1}. Longer text follows: it says what the tool needs and what it gives back, as real servers' descriptions do, over more than one sentence.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: `The ${noun}'s id` },
        mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe', description: 'How to go about it' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'At most this many' },
        options: {
          type: 'object',
          properties: { dryRun: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } },
        },
      },
      required: ['id'],
    },
  };
});

const server = new Server({ name: 'many', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (!tools.some((t) => t.name === request.params.name)) throw new Error(`unknown tool ${request.params.name}`);
  return {
    content: [{ type: 'text', text: `${request.params.name} ${JSON.stringify(request.params.arguments ?? {})}` }],
  };
});
await server.connect(new StdioServerTransport());
