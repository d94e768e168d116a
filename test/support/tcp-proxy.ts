/**
 * A TCP proxy on 127.0.0.1 in front of a real server, for tests of an outage: `down()` cuts
 * every connection through it and refuses new ones (accepted, then closed at once, and
 * counted) until `up()`.
 * @module
 */
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy. */
export type TcpProxy = {
  readonly port: number;
  /** Cut every connection and refuse new ones. */
  down(): void;
  /** Forward new connections again. */
  up(): void;
  /** Connections refused while down. */
  refused(): number;
  close(): Promise<void>;
};

/** Proxy a free port to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let isDown = false;
  let refused = 0;
  const server = createServer((client) => {
    if (isDown) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    down() {
      isDown = true;
      for (const socket of open) socket.destroy();
    },
    up() {
      isDown = false;
    },
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
