// The fairness scenario's upstream: `echo` (answers its text) and `size` (answers its
// text's length), over stdio, or over Streamable HTTP with `--http=PORT` (127.0.0.1, one
// session per client). Nothing bad on purpose: it is only as fast as one process is.
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createEchoServer } from './echo-server.mjs';

const tools = {
  size: { description: 'Answers the length of its text', run: (args) => String(args?.text?.length ?? 0) },
};
const port = process.argv.find((a) => a.startsWith('--http='))?.slice('--http='.length);

if (port === undefined) {
  await createEchoServer({ name: 'fair', tools }).connect();
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
      const { server } = createEchoServer({ name: 'fair-http', tools });
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await server.connect(transport);
    }
    if (!transport) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such session"}');
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(Number(port), '127.0.0.1');
}
