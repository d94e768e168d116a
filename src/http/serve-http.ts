import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpHandler, HttpHandlerDeps } from './create-http-handler.js';

/** A listening HTTP server whose `close()` also ends open SSE streams. */
export type HttpServer = {
  address(): AddressInfo;
  /** The port it listens on (the one picked, for port 0). */
  readonly port: number;
  /** Its base URL, `http://host:port`. */
  readonly url: string;
  /** Start serving with `listener`; until then every request gets 503 (the service is starting). */
  handle(listener: RequestListener): void;
  /**
   * Load the HTTP side (its own chunks of the bundle: the MCP endpoints, then the app and the
   * API) and serve it: done once the upstreams are starting, so it overlaps with their start.
   * Resolves once the MCP endpoints answer; the app is built at its first request or soon
   * after (a request meanwhile waits for it).
   */
  serve(deps: HttpHandlerDeps): Promise<void>;
  /**
   * Stop taking connections, and wait (at most `graceMs`) for the POST and DELETE requests
   * already taken to be answered: the first step of a stop, so that a balancer's next
   * connection is refused and goes to another replica, and a request that arrived just
   * before is served, not cut (issue 22). Streams (GET) are left to the close.
   */
  stopListening(graceMs: number): Promise<void>;
  close(): Promise<void>;
};

const STARTING = JSON.stringify({ error: { code: 'starting', message: 'boternity is starting; retry shortly' } });

/**
 * Each connection's high-water mark (Node's default: 16 KiB). An answer over it sets the
 * socket's `needDrain`, and a `drain` is emitted once it is written: for every answer of more
 * than 16 KiB (a 64 KiB tool result), work and an event no one waits for, and code V8 meets
 * first at the first long answer and deoptimizes for (issue 20). Streams are bounded by the
 * bytes they hold (`sse-write-guard.ts`), not by this mark.
 */
export const SOCKET_HIGH_WATER_MARK = 256 * 1024;

/**
 * Listen on host:port (port 0 picks a free one); resolves once listening. Binding comes
 * first, before the app exists, so a taken port fails before anything else starts.
 */
export function listenHttp({
  host,
  port,
  late = false,
}: {
  host: string;
  port: number;
  /**
   * Stop listening once the port is known to be ours, and listen again when the MCP endpoints
   * are served (cluster mode, issue 22): a starting replica refuses connections, so that a
   * load balancer passes the request to another replica, as nginx does for a refused one,
   * instead of a "starting" 503 that fails the call.
   */
  late?: boolean;
}): Promise<HttpServer> {
  let serve: RequestListener | null = null;
  let closing: Promise<void> | null = null;
  let handler: HttpHandler | null = null;
  // POST and DELETE requests not yet answered (GET streams last as long as their clients), and
  // connections taken whose first request has not come yet: a stop waits for both.
  let answering = 0;
  const silent = new Set<Socket>();
  let answered: (() => void) | null = null;
  const settle = () => {
    if (answering === 0 && silent.size === 0) answered?.();
  };
  const server = createServer({ highWaterMark: SOCKET_HIGH_WATER_MARK }, (req, res) => {
    if (req.method !== 'GET') {
      answering += 1;
      res.once('close', () => {
        answering -= 1;
        settle();
      });
    }
    // Counted as answering (above) before it stops counting as silent.
    if (silent.delete(req.socket)) settle();
    if (serve) return serve(req, res);
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end(STARTING);
  });
  server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => {
      if (silent.delete(socket)) settle();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const name = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const paused = late ? new Promise<void>((done) => server.close(() => done())) : null;
      const listenAgain = () =>
        new Promise<void>((done, fail) => {
          server.once('error', fail);
          server.listen(address.port, host, () => {
            server.off('error', fail);
            done();
          });
        });
      resolve({
        address: () => server.address() as AddressInfo,
        port: address.port,
        url: `http://${name}:${address.port}`,
        handle: (listener) => {
          serve = listener;
        },
        serve: async (deps) => {
          const { createHttpHandler } = await import('./create-http-handler.js');
          handler = createHttpHandler(deps);
          serve = handler.listener;
          if (paused && !closing) {
            await paused;
            await listenAgain();
          }
        },
        stopListening: async (graceMs) => {
          if (server.listening) server.close();
          if (answering === 0 && silent.size === 0) return;
          await new Promise<void>((done) => {
            const timer = setTimeout(done, graceMs);
            answered = () => {
              clearTimeout(timer);
              done();
            };
          });
          answered = null;
        },
        close: () => {
          handler?.stop();
          closing ??= new Promise<void>((done) => {
            server.close(() => done());
            // close() waits for open connections (SSE clients) unless they are ended.
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}
