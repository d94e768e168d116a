// Fault upstream: once initialized, sends notifications as fast as the pipe takes them.
// FLOOD=message (logging messages, 1 KB each, default), list_changed (tools/list_changed),
// resources_updated (notifications/resources/updated of one URI) or progress (progress
// notifications for a token nobody asked about).
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createEchoServer } from './echo-server.mjs';

const kind = process.env.FLOOD ?? 'message';
const { server, connect } = createEchoServer({
  name: 'flood',
  capabilities: { logging: {}, tools: { listChanged: true }, resources: { subscribe: true } },
});
const filler = 'x'.repeat(1_000);
const uri = `flood://item/${filler.slice(0, 200)}`;
server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri, name: 'item' }] }));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
const send = {
  message: () => server.sendLoggingMessage({ level: 'info', data: filler }),
  list_changed: () => server.sendToolListChanged(),
  resources_updated: () => server.sendResourceUpdated({ uri }),
  progress: () =>
    server.notification({ method: 'notifications/progress', params: { progressToken: 424242, progress: 1 } }),
}[kind];
if (!send) throw new Error(`unknown FLOOD=${kind}`);
server.oninitialized = () => {
  void (async () => {
    // Each send waits for the pipe to drain: the flood goes as fast as the reader reads.
    for (;;) await send();
  })().catch(() => process.exit(0));
};
await connect();
