// An MCP server over stdio that pages every list: PAGE_SIZE entries per page, with cursors.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const PAGE_SIZE = 2;
const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
const lists = {
  tools: range(5).map((i) => ({ name: `tool_${i}`, inputSchema: { type: 'object', properties: {} } })),
  resources: range(5).map((i) => ({ uri: `paged://resource/${i}`, name: `resource_${i}` })),
  resourceTemplates: range(3).map((i) => ({ uriTemplate: `paged://template/${i}/{id}`, name: `template_${i}` })),
  prompts: range(4).map((i) => ({ name: `prompt_${i}` })),
};
const pageOf = (key, cursor) => {
  const start = cursor === undefined ? 0 : Number(cursor);
  const end = start + PAGE_SIZE;
  return { [key]: lists[key].slice(start, end), ...(end < lists[key].length ? { nextCursor: String(end) } : {}) };
};

const server = new Server(
  { name: 'paged', version: '1.0.0' },
  { capabilities: { tools: {}, resources: {}, prompts: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async (r) => pageOf('tools', r.params?.cursor));
server.setRequestHandler(ListResourcesRequestSchema, async (r) => pageOf('resources', r.params?.cursor));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async (r) =>
  pageOf('resourceTemplates', r.params?.cursor),
);
server.setRequestHandler(ListPromptsRequestSchema, async (r) => pageOf('prompts', r.params?.cursor));
await server.connect(new StdioServerTransport());
