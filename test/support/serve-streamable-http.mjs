// One MCP server per client session over Streamable HTTP on 127.0.0.1, with the SDK's
// transport: the plumbing of the test and chaos upstreams that speak HTTP. `newSession()`
// makes a session's SDK `Server` (and an `onClose` to run when the session ends); an
// `initialize` POST opens a session, its `Mcp-Session-Id` finds it after, DELETE ends it.
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * Listen on `port` (0: a free one); with `announce`, print `listening <url>` once listening.
 * With `bearer`, a request without `Authorization: Bearer <bearer>` is answered 401. With
 * `guard`, each request is first given to it: when it answered the request it resolves false.
 * @param {{ port: number, announce?: boolean, bearer?: string, guard?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<boolean>, newSession: () => { server: import('@modelcontextprotocol/sdk/server/index.js').Server, onClose?: () => void } }} options
 */
export function serveStreamableHttp({ port, announce = false, bearer, guard, newSession }) {
  const sessions = new Map();
  const open = async () => {
    const { server, onClose } = newSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    transport.onclose = () => {
      onClose?.();
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };
  const http = createServer(async (req, res) => {
    if (guard && !(await guard(req, res))) return;
    if (bearer !== undefined && req.headers.authorization !== `Bearer ${bearer}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"a bearer is needed"}');
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport && req.method === 'POST' && isInitializeRequest(body)) transport = await open();
    if (!transport) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such session"}');
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(port, '127.0.0.1', () => {
    if (announce) process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  return http;
}
