// Fault upstream: its `huge` tool answers HUGE_MB (default 50) megabytes of text.
import { createEchoServer } from './echo-server.mjs';

const size = Number(process.env.HUGE_MB ?? 50) * 1024 * 1024;
const { connect } = createEchoServer({
  name: 'huge',
  tools: { huge: { description: 'Answers a very large text', run: () => 'y'.repeat(size) } },
});
await connect();
