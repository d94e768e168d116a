// Fault upstream: once initialized, sends notifications as fast as the pipe takes them.
// FLOOD=message (logging messages, 1 KB each, default) or FLOOD=list_changed.
import { createEchoServer } from './echo-server.mjs';

const kind = process.env.FLOOD ?? 'message';
const { server, connect } = createEchoServer({
  name: 'flood',
  capabilities: { logging: {}, tools: { listChanged: true } },
});
const filler = 'x'.repeat(1_000);
server.oninitialized = () => {
  void (async () => {
    // Each send waits for the pipe to drain: the flood goes as fast as the reader reads.
    for (;;) {
      if (kind === 'list_changed') await server.sendToolListChanged();
      else await server.sendLoggingMessage({ level: 'info', data: filler });
    }
  })().catch(() => process.exit(0));
};
await connect();
