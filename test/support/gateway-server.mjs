// A stdio MCP server for gateway tests: a 70-character tool name, a slow tool that notices
// cancellation, a tool that asks the agent to sample, and add_tool (sends list_changed).
// TOOL_PREFIX names its tools differently per instance.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const prefix = process.env.TOOL_PREFIX ?? '';
const server = new Server(
  { name: 'gateway-fixture', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
const tool = (name, properties = {}) => ({
  name,
  description: `fixture tool ${name}`,
  inputSchema: { type: 'object', properties },
});
const LONG = `${prefix}a_tool_whose_name_is_exactly_seventy_characters_long_for_the_gateway`
  .padEnd(70, 'x')
  .slice(0, 70);
const tools = new Map(
  [
    tool(`${prefix}echo`, { text: { type: 'string' } }),
    tool(LONG),
    tool(`${prefix}slow`, { ms: { type: 'number' } }),
    tool(`${prefix}cancelled_count`),
    tool(`${prefix}ask`, { prompt: { type: 'string' } }),
    tool('add_tool', { name: { type: 'string' } }),
    tool('secret'),
  ].map((t) => [t.name, t]),
);
let cancelled = 0;
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools.values()] }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  if (!tools.has(name)) throw new Error(`unknown tool ${name}`);
  if (name === `${prefix}echo`) return text(`echo:${args.text}`);
  if (name === LONG) return text('long name routed');
  if (name === `${prefix}cancelled_count`) return text(String(cancelled));
  if (name === 'secret') return text('the secret');
  if (name === `${prefix}slow`) {
    // Tests wait for this line (kept in the server's stderr log) before they act mid-call.
    process.stderr.write('slow started\n');
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, Number(args.ms ?? 10_000));
      extra.signal.addEventListener('abort', () => {
        cancelled += 1;
        clearTimeout(timer);
        resolve();
      });
    });
    return text('slow done');
  }
  if (name === `${prefix}ask`) {
    const answer = await extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }], maxTokens: 5 },
      },
      CreateMessageResultSchema,
    );
    return text(`answer:${answer.content.type === 'text' ? answer.content.text : '?'}`);
  }
  const added = String(args.name);
  tools.set(added, tool(added));
  await server.sendToolListChanged();
  return text(`added ${added}`);
});
await server.connect(new StdioServerTransport());
