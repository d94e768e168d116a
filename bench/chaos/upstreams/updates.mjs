// Fault upstream: one resource that an agent may subscribe to, whose updates come as fast as
// the pipe takes them while the tool `flood {seconds}` runs, or `count` of them at once with
// `burst {count}`. Its URI is padded to URI_BYTES (default 8,000), so each update is sizeable.
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createEchoServer } from './echo-server.mjs';

const uri = `chaos://busy/${'x'.repeat(Number(process.env.URI_BYTES ?? 8_000))}`;
let sent = 0;
const update = async () => {
  await server.sendResourceUpdated({ uri });
  sent += 1;
  // The pipe may take everything at once: let the service's answers in between.
  if (sent % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
};
const { server, connect } = createEchoServer({
  name: 'updates',
  capabilities: { resources: { subscribe: true } },
  tools: {
    flood: {
      description: 'Sends updates of the resource without pause for `seconds`',
      async run(args) {
        const until = performance.now() + Number(args?.seconds ?? 10) * 1_000;
        const from = sent;
        while (performance.now() < until) await update();
        return `sent ${sent - from}`;
      },
    },
    burst: {
      description: 'Sends `count` updates of the resource',
      async run(args) {
        for (let i = 0; i < Number(args?.count ?? 1); i++) await update();
        return `sent ${Number(args?.count ?? 1)}`;
      },
    },
  },
});
server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri, name: 'busy' }] }));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
server.setRequestHandler(ReadResourceRequestSchema, async () => ({ contents: [{ uri, text: 'busy' }] }));
server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
await connect();
