/**
 * A TCP port on 127.0.0.1 that nothing listens on (at the moment of asking).
 * @module
 */
import { createServer } from 'node:net';

/** Ask the kernel for a free loopback port, then release it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}
