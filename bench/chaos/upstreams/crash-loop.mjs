// Fault upstream: answers `initialize` and the listings, then exits CRASH_AFTER_MS (default
// 300) ms later with code 1, every time it is started.
import { createEchoServer } from './echo-server.mjs';

const { server, connect } = createEchoServer({ name: 'crash-loop' });
server.oninitialized = () => {
  setTimeout(() => process.exit(1), Number(process.env.CRASH_AFTER_MS ?? 300));
};
await connect();
