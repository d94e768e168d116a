/**
 * A plain round-robin HTTP load balancer on 127.0.0.1 for the cluster tests and bench (issue
 * 22): each request goes to the next replica in turn — no affinity, no cookie, a new upstream
 * request each time, so that consecutive requests of one MCP session land on different
 * replicas. Bodies and answers are streamed both ways (an SSE stream stays open as long as
 * its replica keeps it). Like nginx's default `proxy_next_upstream error`: a replica that
 * refuses the connection (restarting) is skipped and the request, not yet sent, goes to the
 * next; a replica that fails after the request was sent gives a 502, as nginx does for a
 * request that is not idempotent.
 * @module
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running balancer. */
export type RoundRobinProxy = {
  readonly url: string;
  /** Requests sent to each replica so far, by its base URL. */
  readonly sent: Map<string, number>;
  /** Every request answered, in order: its HTTP method, the replica it went to, its body. */
  readonly trail: { readonly method: string; readonly replica: string; readonly body: string }[];
  /** Every request as it was sent (answered or not), in order: its method and the replica it went to. */
  readonly routed: readonly { readonly method: string; readonly replica: string }[];
  /** Requests that reached no replica (all refused), and answers cut by a replica's failure. */
  readonly failures: () => number;
  close(): Promise<void>;
};

/** Start a balancer in front of `replicas` (base URLs such as `http://127.0.0.1:4001`). */
export async function startRoundRobinProxy(replicas: readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  let failures = 0;
  const sent = new Map<string, number>(replicas.map((r) => [r, 0]));
  const trail: { method: string; replica: string; body: string }[] = [];
  const routed: { method: string; replica: string }[] = [];

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: number): void => {
    if (tried >= replicas.length) {
      failures += 1;
      res.writeHead(502, { 'content-type': 'text/plain' }).end('no replica answered');
      return;
    }
    const target = new URL(replicas[next % replicas.length] as string);
    next += 1;
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, connection: 'close' },
        agent: false,
      },
      (answer) => {
        sent.set(target.origin, (sent.get(target.origin) ?? 0) + 1);
        trail.push({ method: req.method ?? '', replica: target.origin, body: body.toString('utf8') });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once('error', () => res.destroy());
        res.once('close', () => answer.destroy());
      },
    );
    let written = false;
    upstream.once('socket', (socket) =>
      socket.once('connect', () => {
        written = true;
        routed.push({ method: req.method ?? 'GET', replica: target.origin });
      }),
    );
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      // Refused before anything was sent: the next replica gets it (nginx's `error`).
      if (!written && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET')) {
        forward(req, res, body, tried + 1);
        return;
      }
      failures += 1;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`replica failed: ${error.code}`);
      else res.destroy();
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => forward(req, res, Buffer.concat(chunks), 0));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    trail,
    routed,
    failures: () => failures,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
