// Fault upstream: a tool list that is never the same twice in a row. It sends
// tools/list_changed without pause, and each tools/list answers the other of two sets of
// TOOLS (default 300) long names: every re-list is a catalog_changed event naming them all.
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createEchoServer } from './echo-server.mjs';

const count = Number(process.env.TOOLS ?? 300);
const sets = [0, 1].map((generation) =>
  Array.from({ length: count }, (_, i) => ({
    name: `churn_${generation}_${String(i).padStart(4, '0')}_${'n'.repeat(40)}`,
    description: 'A tool that comes and goes',
    inputSchema: { type: 'object', properties: {} },
  })),
);
let listed = 0;
const { server, connect } = createEchoServer({ name: 'churn', capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sets[listed++ % 2] }));
server.oninitialized = () => {
  void (async () => {
    for (;;) {
      await server.sendToolListChanged();
      // One change at a time is enough to keep the service re-listing: no pile of them.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })().catch(() => process.exit(0));
};
await connect();
