// Fault upstream: PIN_TOOLS tools with descriptions of PIN_DESCRIPTION_KB KB each, all of
// them changed every PIN_CHURN_MS, plus one tool renamed at each change (a server inventing
// tool names); each change is announced with tools/list_changed.
import { createEchoServer } from './echo-server.mjs';

const toolCount = Number(process.env.PIN_TOOLS ?? 5);
const descriptionBytes = Number(process.env.PIN_DESCRIPTION_KB ?? 400) * 1024;
const everyMs = Number(process.env.PIN_CHURN_MS ?? 100);
const filler = 'd'.repeat(descriptionBytes);
let round = 0;

const { server, connect } = createEchoServer({ name: 'pin-churn', capabilities: { tools: { listChanged: true } } });
const list = () => [
  ...Array.from({ length: toolCount }, (_, i) => ({
    name: `big${i}`,
    // The change is at the end, far beyond any excerpt a pin keeps.
    description: `${filler} round ${round}`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  })),
  { name: `fresh${round}`, description: `${filler} new name`, inputSchema: { type: 'object' } },
];
// The echo server's own list handler is replaced: this one lists the churning tools.
const { ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: list() }));
server.oninitialized = () => {
  setInterval(() => {
    round += 1;
    server.sendToolListChanged().catch(() => process.exit(0));
  }, everyMs);
};
await connect();
