// Fault upstream over HTTP: its `huge` tool answers HUGE_MB (default 1024) megabytes of
// text, written as it streams (never held whole, so any size works) and at RATE_MB_S
// megabytes a second when `?rate=` is given. Streamable HTTP at /mcp answers as JSON, or
// with `?answer=stream` as one SSE event; legacy HTTP+SSE at /sse sends it as one event
// of its stream. Everything else is the SDK's. GET /stats: each huge answer's bytes
// written so far and when its socket closed. Prints `listening <base url>`.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const SIZE = Number(process.env.HUGE_MB ?? 1024) * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 'y');
const answers = [];

function newServer() {
  const server = new Server({ name: 'huge-http', version: '1.0.0' }, { capabilities: { tools: {} } });
  const schema = { type: 'object', properties: { text: { type: 'string' } } };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'huge', description: `Answers ${SIZE} bytes of text`, inputSchema: schema },
      { name: 'echo', description: 'Returns its text argument', inputSchema: schema },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }],
  }));
  return server;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Write the answer to request `id` into `out`, as it goes; stops when the socket closes. */
async function streamAnswer(out, { id, framing, rate }) {
  const record = { id, framing, bytes: 0, startedAt: Date.now(), closedAt: null, finished: false };
  answers.push(record);
  const closed = new Promise((resolve) => out.once('close', resolve));
  void closed.then(() => {
    record.closedAt ??= Date.now();
  });
  const write = async (data) => {
    if (out.destroyed || out.writableEnded) return false;
    record.bytes += data.length;
    if (!out.write(data)) await Promise.race([new Promise((resolve) => out.once('drain', resolve)), closed]);
    return !out.destroyed;
  };
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  const tail = '"}]}}';
  if (!(await write(framing === 'json' ? head : `event: message\ndata: ${head}`))) return;
  for (let sent = 0; sent < SIZE; sent += CHUNK.length) {
    if (!(await write(sent + CHUNK.length <= SIZE ? CHUNK : CHUNK.subarray(0, SIZE - sent)))) return;
    if (rate > 0) {
      const due = record.startedAt + ((sent + CHUNK.length) / (rate * 1024 * 1024)) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
    }
  }
  if (!(await write(framing === 'json' ? tail : `${tail}\n\n`))) return;
  record.finished = true;
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

const isHuge = (body) => body?.method === 'tools/call' && body.params?.name === 'huge';
const streamable = new Map();
const legacy = new Map();

const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const rate = Number(url.searchParams.get('rate') ?? 0);
  if (url.pathname === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answers }));
    return;
  }
  if (url.pathname === '/sse' && req.method === 'GET') {
    const transport = new SSEServerTransport(`/messages?rate=${rate}`, res);
    legacy.set(transport.sessionId, { transport, res });
    await newServer().connect(transport);
    return;
  }
  if (url.pathname === '/messages') {
    const session = legacy.get(url.searchParams.get('sessionId') ?? '');
    const body = await readJson(req);
    if (!session) {
      res.writeHead(404).end();
    } else if (isHuge(body)) {
      res.writeHead(202).end('Accepted');
      await streamAnswer(session.res, { id: body.id, framing: 'event', rate });
    } else {
      await session.transport.handlePostMessage(req, res, body).catch(() => undefined);
    }
    return;
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? streamable.get(id) : undefined;
  if (transport && isHuge(body)) {
    const stream = url.searchParams.get('answer') === 'stream';
    res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
    await streamAnswer(res, { id: body.id, framing: stream ? 'stream' : 'json', rate });
    if (!res.destroyed) res.end();
    return;
  }
  if (!transport && body?.method === 'initialize') {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        streamable.set(sessionId, transport);
      },
    });
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${http.address().port}\n`);
});
