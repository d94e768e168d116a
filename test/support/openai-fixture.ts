/**
 * A local OpenAI-compatible provider for tests and benches: a real HTTP server on 127.0.0.1
 * speaking `POST /v1/chat/completions`, streaming (SSE chunks, `tool_calls` deltas, a usage
 * chunk when `stream_options.include_usage`) and not, with errors and dropped connections
 * on demand. Replies are scripted per test (a queue of replies or functions of the request),
 * and every request is recorded so a test can assert what the provider saw.
 * @module
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted tool call; `arguments` that are not a string are sent as JSON. */
export type FixtureToolCall = { id?: string; name: string; arguments: unknown };

/** What the fixture answers to one request. */
export type FixtureReply =
  | {
      text?: string;
      toolCalls?: FixtureToolCall[];
      /** `null`: report no usage at all. Default: a count derived from the characters. */
      usage?: { prompt_tokens: number; completion_tokens: number } | null;
      finishReason?: 'stop' | 'length' | 'tool_calls';
      /** Streaming only: close the connection after this many text pieces, mid-answer. */
      dropAfter?: number;
    }
  | { error: { status: number; message: string } }
  | { drop: true };

/** A request the fixture got; `timing` (performance.now(), this process) spans its arrival to the end of the answer. */
export type FixtureRequest = {
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
  timing: { start: number; end: number | null };
};

/** The parts of a chat completion request the tests look at. */
export type ChatBody = {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  max_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
};

type Script = FixtureReply | ((request: FixtureRequest) => FixtureReply);

/** The running fixture. */
export type OpenAiFixture = {
  /** `http://127.0.0.1:<port>/v1`: what a bot's `provider.baseUrl` is set to. */
  baseUrl: string;
  requests: FixtureRequest[];
  /** Queue replies, answered in order; with the queue empty, `fallback` answers. */
  reply(...replies: Script[]): void;
  fallback: Script;
  close(): Promise<void>;
};

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/** Start the fixture on an ephemeral loopback port. */
export async function startOpenAiFixture(): Promise<OpenAiFixture> {
  const queue: Script[] = [];
  const requests: FixtureRequest[] = [];
  let served = 0;
  const fixture: OpenAiFixture = {
    baseUrl: '',
    requests,
    reply: (...replies) => queue.push(...replies),
    fallback: { error: { status: 500, message: 'the fixture has no scripted reply' } },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const start = performance.now();
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } });
        return;
      }
      const timing = { start, end: null as number | null };
      const request: FixtureRequest = {
        path: req.url,
        headers: req.headers,
        body: JSON.parse(raw) as ChatBody,
        timing,
      };
      requests.push(request);
      res.on('finish', () => {
        timing.end = performance.now();
      });
      const script = queue.shift() ?? fixture.fallback;
      answer(res, request, typeof script === 'function' ? script(request) : script, `chatcmpl-${++served}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fixture;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function answer(res: ServerResponse, request: FixtureRequest, reply: FixtureReply, id: string): void {
  if ('drop' in reply) {
    res.socket?.destroy();
    return;
  }
  if ('error' in reply) {
    send(res, reply.error.status, { error: { message: reply.error.message, type: 'fixture_error', code: null } });
    return;
  }
  const text = reply.text ?? '';
  const calls = (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${id}_${i}`,
    type: 'function' as const,
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
  const finish = reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const usage =
    reply.usage === null
      ? undefined
      : (reply.usage ?? {
          prompt_tokens: tokens(JSON.stringify(request.body.messages).length),
          completion_tokens: tokens(text.length + calls.reduce((n, c) => n + c.function.arguments.length, 0)),
        });
  const withTotal = usage && { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  const base = { id, created: Math.floor(Date.now() / 1000), model: request.body.model };
  if (!request.body.stream) {
    const message = { role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) };
    send(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
      ...(withTotal ? { usage: withTotal } : {}),
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  // Text in word-sized pieces and arguments in two halves, as real providers split them.
  for (const [i, piece] of (text.match(/\S+\s*|\s+/g) ?? []).entries()) {
    if (i === reply.dropAfter) {
      // Once what was written has left, so the client sees a stream cut short.
      res.write('', () => res.socket?.destroy());
      return;
    }
    chunk({ content: piece });
  }
  calls.forEach((call, index) => {
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
  });
  chunk({}, finish);
  if (withTotal && request.body.stream_options?.include_usage)
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: withTotal })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}
