/**
 * A plain HTTP server on 127.0.0.1 that holds each GET until the test releases it, then
 * answers the status and text the test gives: pointed at by the gate server's `fetch` tool,
 * a workflow step runs exactly as long as the test wants, with no sleep.
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A held server: `url`, `arrived()` resolves when a request is held, `release()` answers it. */
export async function startHeldHttp() {
  const held: ServerResponse[] = [];
  const waiting: (() => void)[] = [];
  const server = createServer((_request, response) => {
    held.push(response);
    for (const wake of waiting.splice(0)) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    /** Resolves once a request is being held. */
    arrived: () =>
      held.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(() => resolve())),
    /** Answer the oldest held request. */
    release(status: number, text: string) {
      const response = held.shift();
      if (!response) throw new Error('no request is held');
      response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held.splice(0)) response.destroy();
        server.close(() => resolve());
      }),
  };
}
