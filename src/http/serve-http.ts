import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** A listening HTTP server whose `close()` also ends open SSE streams. */
export type HttpServer = { address(): AddressInfo; close(): Promise<void> };

/** Listen on host:port (port 0 picks a free one); resolves once listening. */
export function serveHttp({ app, host, port }: { app: Hono; host: string; port: number }): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve({
        address: () => server.address() as AddressInfo,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // close() waits for open connections (SSE clients) unless they are ended.
            server.closeAllConnections();
          }),
      });
    });
  });
}
