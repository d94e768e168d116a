// Fault upstream: answers like an echo server but writes a garbage line to stdout every
// GARBAGE_MS (default 5) ms: plain text, broken JSON, JSON that is not JSON-RPC, binary.
import { createEchoServer } from './echo-server.mjs';

const { connect } = createEchoServer({ name: 'garbage' });
await connect();
const lines = [
  'this is not json',
  '{"jsonrpc":"2.0","id":',
  '{"hello":"world"}',
  '[1,2,3]',
  '\u0000\u0001\u0002\u00ff binary',
  '{"jsonrpc":"2.0","id":999999,"result":{}}',
  '{"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}}',
];
let i = 0;
setInterval(
  () => {
    process.stdout.write(`${lines[i++ % lines.length]}\n`);
  },
  Number(process.env.GARBAGE_MS ?? 5),
);
