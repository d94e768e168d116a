import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';

/** A listening HTTP server whose `close()` also ends open SSE streams. */
export type HttpServer = { address(): AddressInfo; close(): Promise<void> };

/** A handler for the MCP endpoints, served on `node:http` beside the app (ADR 006). */
export type NodeRoute = {
  matches(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
};

/** Listen on host:port (port 0 picks a free one); resolves once listening. */
export function serveHttp({
  app,
  host,
  port,
  mcp,
}: {
  app: Hono;
  host: string;
  port: number;
  /** Takes the requests it matches before the app sees them. */
  mcp?: NodeRoute;
}): Promise<HttpServer> {
  const fetch = getRequestListener(app.fetch, { hostname: host });
  const server = createServer((req, res) => {
    if (mcp?.matches(req.url ?? '/')) void mcp.handle(req, res);
    else void fetch(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
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
