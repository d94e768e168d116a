// A stdio MCP server that floods notifications from the moment it is initialized: logging
// messages and resources/updated (of a resource nobody subscribed to) in turn, as fast as
// its stdout takes them, until the `stop` tool is called, which answers how many it sent of
// each. Also an `echo` tool. For the notification rate limit tests (issue 17).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const server = new Server(
  { name: 'flood', version: '1.0.0' },
  { capabilities: { tools: {}, logging: {}, resources: { subscribe: true } } },
);
const tool = (name) => ({ name, inputSchema: { type: 'object', properties: {} } });
const uri = 'flood://item';
const sent = { message: 0, resources_updated: 0 };
let flooding = true;
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool('echo'), tool('stop')] }));
server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri, name: 'item' }] }));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'stop') flooding = false;
  const text = request.params.name === 'stop' ? JSON.stringify(sent) : 'echo';
  return { content: [{ type: 'text', text }] };
});
server.oninitialized = () => {
  void (async () => {
    // Each send waits for the pipe to drain: as fast as boternity reads.
    // Counted before it is sent: `stop` may answer while a send waits for the pipe.
    for (let i = 0; flooding; i++) {
      if (i % 2 === 0) {
        sent.message++;
        await server.sendLoggingMessage({ level: 'info', data: `flood ${i}` });
      } else {
        sent.resources_updated++;
        await server.sendResourceUpdated({ uri });
      }
    }
  })();
};
await server.connect(new StdioServerTransport());
