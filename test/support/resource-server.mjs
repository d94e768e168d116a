// A stdio MCP server with one subscribable resource and logging, for the bridge's resumed
// sessions: `touch` sends notifications/resources/updated for note://a only when this
// process was subscribed to it; `log` sends an info and an error message, which the SDK
// drops below the level the client set (none set: both go).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const URI = 'note://a';
const server = new Server(
  { name: 'resource-fixture', version: '1.0.0' },
  { capabilities: { tools: {}, resources: { subscribe: true }, logging: {} } },
);
const subscribed = new Set();
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: URI, name: 'note a' }] }));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
server.setRequestHandler(ReadResourceRequestSchema, async () => ({ contents: [{ uri: URI, text: 'a' }] }));
server.setRequestHandler(SubscribeRequestSchema, async (request) => {
  subscribed.add(request.params.uri);
  return {};
});
server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
  subscribed.delete(request.params.uri);
  return {};
});
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: ['touch', 'log'].map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'touch') {
    if (subscribed.has(URI)) await server.sendResourceUpdated({ uri: URI });
    return text(subscribed.has(URI) ? 'touched' : 'touched (nobody subscribed)');
  }
  await server.sendLoggingMessage({ level: 'info', data: 'an info line' });
  await server.sendLoggingMessage({ level: 'error', data: 'an error line' });
  return text('logged');
});
await server.connect(new StdioServerTransport());
