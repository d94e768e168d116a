/**
 * A misbehaving remote upstream on 127.0.0.1, in the test's process so that a test can see
 * what its sockets go through: Streamable HTTP (answers as JSON or as an event stream) or
 * legacy HTTP+SSE, with the SDK's server transports. Its tools: `big` answers `bytes`
 * bytes of text, `hang` never answers, `die` breaks off the stream that was to carry its
 * answer, `echo` answers its text. Each `tools/call` records when its HTTP response closed
 * and whether the client closed the connection under it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { waitFor } from './wait-for.js';

/** How the server speaks: Streamable HTTP answering in JSON or in SSE, or legacy HTTP+SSE. */
export type AnswerServerMode = 'json' | 'stream' | 'sse';

/** One HTTP response of the server and how it ended. */
export type RecordedResponse = {
  readonly tool: string | null;
  /**
   * Resolves when the response closed: `cut` when the client closed the connection under it
   * (a response written to the end leaves the connection open for the next request).
   */
  readonly closed: Promise<{ cut: boolean; at: number }>;
};

/** A running answer server. */
export type AnswerServer = {
  readonly url: string;
  /** The `tools/call` POSTs (Streamable HTTP) in order. */
  readonly calls: readonly RecordedResponse[];
  /** The event-stream GETs (legacy SSE) in order. */
  readonly streams: readonly RecordedResponse[];
  /** Tool names of the `notifications/cancelled` it heard, by request id. */
  readonly cancelled: readonly string[];
  /** Everything `hang` was asked for is let go; the server closes. */
  stop(): Promise<void>;
};

const TOOLS = ['big', 'hang', 'die', 'echo'].map((name) => ({
  name,
  inputSchema: { type: 'object' as const, properties: { bytes: { type: 'number' }, text: { type: 'string' } } },
}));

function record(req: IncomingMessage, res: ServerResponse, tool: string | null): RecordedResponse {
  const { socket } = req;
  const closed = new Promise<{ cut: boolean; at: number }>((resolve) =>
    res.once('close', () => resolve({ cut: socket.destroyed, at: Date.now() })),
  );
  return { tool, closed };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** Start a server in `mode` on a free port. */
export async function startAnswerServer(mode: AnswerServerMode): Promise<AnswerServer> {
  const calls: RecordedResponse[] = [];
  const streams: RecordedResponse[] = [];
  const cancelled: string[] = [];
  const inFlight = new Map<string, string>();
  const responses = new Map<string, ServerResponse>();
  const streamOf = new Map<string, ServerResponse>();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });

  const newServer = (sessionId: () => string | undefined) => {
    const server = new Server({ name: 'answers', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args = {} } = request.params;
      inFlight.set(String(extra.requestId), name);
      if (name === 'hang') await released;
      if (name === 'die') {
        // The stream that carries this answer: its own POST's, or the session's one GET.
        const res = mode === 'sse' ? streamOf.get(sessionId() ?? '') : responses.get(String(extra.requestId));
        if (res) {
          await waitFor(() => res.headersSent, { what: 'the answer stream open' });
          if (mode === 'sse') res.end();
          else res.socket?.destroySoon();
        }
        await released;
      }
      const text = name === 'big' ? 'y'.repeat(Number(args.bytes ?? 0)) : String(args.text ?? '');
      return { content: [{ type: 'text', text }] };
    });
    server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
      cancelled.push(inFlight.get(String(notification.params.requestId)) ?? '?');
    });
    return server;
  };

  const sessions = new Map<string, StreamableHTTPServerTransport | SSEServerTransport>();
  const http = createServer(async (req, res) => {
    if (mode === 'sse') {
      if (req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        streamOf.set(transport.sessionId, res);
        streams.push(record(req, res, null));
        await newServer(() => transport.sessionId).connect(transport);
        return;
      }
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
      const transport = sessions.get(id);
      if (!(transport instanceof SSEServerTransport)) {
        res.writeHead(404).end();
        return;
      }
      // A message for a session whose stream ended is refused (the SDK throws after answering).
      await transport.handlePostMessage(req, res, await readBody(req)).catch(() => undefined);
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const message = body as { method?: string; id?: string | number; params?: { name?: string } } | undefined;
    if (message?.method === 'tools/call') {
      calls.push(record(req, res, message.params?.name ?? null));
      responses.set(String(message.id), res);
    }
    const header = req.headers['mcp-session-id'];
    let transport = typeof header === 'string' ? sessions.get(header) : undefined;
    if (!transport && message?.method === 'initialize') {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: mode === 'json',
        onsessioninitialized: (id) => {
          sessions.set(id, created);
        },
      });
      await newServer(() => created.sessionId).connect(created);
      transport = created;
    }
    if (!(transport instanceof StreamableHTTPServerTransport)) {
      res.writeHead(404).end();
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`,
    calls,
    streams,
    cancelled,
    async stop() {
      release();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
