/**
 * boternity's Streamable HTTP transport (ADR 006) on real HTTP at 127.0.0.1, against the
 * SDK's own client and raw requests: JSON answers, the switch to SSE for progress and
 * server-to-client requests, the standalone stream, resumption with Last-Event-ID,
 * keep-alive, DELETE, and every refusal the SDK transport makes, with its status.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseEventLog } from '../../../src/http/mcp/sse-event-log.js';
import { fetchInitialize } from '../../support/initialize.js';
import { startTransportSession } from '../../support/transport-session.js';
import { waitFor } from '../../support/wait-for.js';

type Session = Awaited<ReturnType<typeof startTransportSession>>;
const ACCEPT = 'application/json, text/event-stream';
const VERSION = '2025-11-25';

const call = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
  });

/** Read an SSE body until `done(text)` holds; the reader is handed back to cancel or read on. */
async function readUntil(
  from: ReadableStream<Uint8Array> | ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
) {
  const reader = from instanceof ReadableStream ? from.getReader() : from;
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  return { text, reader };
}

/** The ids of the SSE events in `text`, in order. */
const eventIds = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1] as string);

describe('McpHttpTransport', () => {
  let s: Session;
  let sessionId: string;
  const headers = (extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-session-id': sessionId,
    'mcp-protocol-version': VERSION,
    ...extra,
  });
  const post = (body: string, extra: Record<string, string> = {}) =>
    fetch(s.url, { method: 'POST', headers: headers(extra), body });

  beforeAll(async () => {
    s = await startTransportSession({ keepAliveMs: 150, maxBodyBytes: 8_192 });
    const init = await fetchInitialize(s.url, VERSION);
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toBe('application/json');
    sessionId = init.headers.get('mcp-session-id') as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await init.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
      'transport-test',
    );
    expect((await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
  });
  afterAll(() => s?.close());

  it('answers a call with one application/json body carrying the session id and its length', async () => {
    const res = await post(call(1, 'echo', { text: 'hi' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('mcp-session-id')).toBe(sessionId);
    const text = await res.text();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
  });

  it('answers a batch of requests with one JSON array', async () => {
    const res = await post(`[${call(2, 'echo', { text: 'a' })},${call(3, 'echo', { text: 'b' })}]`);
    const body = (await res.json()) as { id: number; result: { content: { text: string }[] } }[];
    expect(body.map((m) => [m.id, m.result.content[0]?.text]).sort()).toEqual([
      [2, 'a'],
      [3, 'b'],
    ]);
  });

  it('turns the answer into an SSE stream when progress comes first, with a priming event', async () => {
    const res = await post(call(4, 'progress', { steps: 2 }, { progressToken: 'p4' }));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.startsWith('id: ')).toBe(true);
    expect(text).toMatch(/^id: \d+\nretry: \d+\ndata: \n\n/);
    const data = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1] as string));
    expect(data.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 'notifications/progress', 4]);
    expect(eventIds(text)).toHaveLength(4);
  });

  it('relays progress, logging and a server-to-client request to the SDK client on the call', async () => {
    const client = new Client({ name: 'sdk', version: '1' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: 'assistant',
      model: 'test',
      content: { type: 'text', text: `re: ${JSON.stringify(request.params.messages[0]?.content)}` },
    }));
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params.data);
    });
    const other = await startTransportSession();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(other.url)));
      const steps: number[] = [];
      const done = await client.callTool({ name: 'progress', arguments: { steps: 3 } }, undefined, {
        onprogress: (p) => steps.push(p.progress),
      });
      expect(steps).toEqual([1, 2, 3]);
      expect(done.content).toEqual([{ type: 'text', text: 'done 3' }]);
      const asked = await client.callTool({ name: 'ask', arguments: { question: 'why?' } });
      const said = (asked.content as { text: string }[])[0]?.text ?? '';
      expect(said.startsWith('sampled: ')).toBe(true);
      expect(JSON.parse(said.slice('sampled: '.length))).toEqual({
        type: 'text',
        text: 're: {"type":"text","text":"why?"}',
      });
      const gate = other.nextGate();
      const held = client.callTool({ name: 'held', arguments: {} });
      await gate.held;
      gate.release();
      expect((await held).content).toEqual([{ type: 'text', text: 'released' }]);
      expect(logged).toEqual(['holding']);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('sends what belongs to no request on the standalone GET stream, one at a time', async () => {
    const get = await fetch(s.url, { headers: { ...headers(), accept: 'text/event-stream' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(s.url, { headers: { ...headers(), accept: 'text/event-stream' } });
    expect(second.status).toBe(409);
    s.server.sendToolListChanged();
    const { text, reader } = await readUntil(get.body as ReadableStream<Uint8Array>, (t) => t.includes('list_changed'));
    expect(text).toMatch(/event: message\nid: \d+\ndata: {"method":"notifications\/tools\/list_changed"/);
    await reader.cancel();
    // Once the server has seen the client leave, a new GET stream may open.
    const again = await waitFor(async () => {
      const r = await fetch(s.url, { headers: { ...headers(), accept: 'text/event-stream' } });
      if (r.status === 200) return r;
      await r.body?.cancel();
      return null;
    });
    await again.body?.cancel();
  });

  it('lets a client that lost a call stream resume it with Last-Event-ID, and replays a finished one', async () => {
    const gate = s.nextGate();
    const res = await post(call(5, 'held'));
    const first = await readUntil(res.body as ReadableStream<Uint8Array>, (t) => t.includes('holding'));
    await gate.held;
    const primed = eventIds(first.text)[0] as string;
    const last = eventIds(first.text).at(-1) as string;
    await first.reader.cancel();
    const resume = (from: string) =>
      fetch(s.url, { headers: { ...headers(), accept: 'text/event-stream', 'last-event-id': from } });
    // Until the server sees the first connection gone, the stream is taken (409).
    const resumed = await waitFor(async () => {
      const r = await resume(last);
      if (r.status === 200) return r;
      await r.body?.cancel();
      return null;
    });
    gate.release();
    const rest = await resumed.text();
    expect(rest).toContain('"text":"released"');
    expect(rest).not.toContain('holding');
    // Every answer was sent: a resume from the priming event replays the lot and ends.
    const replay = await (await resume(primed)).text();
    expect(replay).toContain('holding');
    expect(replay).toContain('"text":"released"');
    expect((await resume('999999')).status).toBe(400);
  });

  it('reconnects a client whose call stream the server closed (polling), and delivers the answer', async () => {
    const other = await startTransportSession({ retryMs: 10 });
    const client = new Client({ name: 'sdk', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(other.url)));
      const gate = other.nextGate();
      const answer = client.callTool({ name: 'poll', arguments: {} });
      await gate.held;
      gate.release();
      expect((await answer).content).toEqual([{ type: 'text', text: 'after reconnect' }]);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('keeps a silent call alive: past keepAliveMs it becomes a stream with keep-alive comments', async () => {
    const gate = s.nextGate();
    const res = await post(call(6, 'silent'));
    await gate.held;
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const { text, reader } = await readUntil(res.body as ReadableStream<Uint8Array>, (t) => t.includes(': keepalive'));
    expect(text).toContain(': keepalive\n\n');
    gate.release();
    const { text: end } = await readUntil(reader, (t) => t.includes('spoke at last'));
    expect(end).toContain('spoke at last');
  });

  it('refuses what the SDK transport refuses, with its statuses and messages', async () => {
    const refused = async (res: Response) => ({
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
    });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });
    let r = await refused(await post(ping, { accept: 'application/json' }));
    expect(r).toMatchObject({ status: 406, body: { error: { code: -32000 } } });
    r = await refused(await post(ping, { 'content-type': 'text/plain' }));
    expect(r).toMatchObject({ status: 415, body: { error: { code: -32000 } } });
    r = await refused(await post('{not json'));
    expect(r).toMatchObject({ status: 400, body: { error: { code: -32700, message: 'Parse error: Invalid JSON' } } });
    r = await refused(await post('{"jsonrpc":"1.0","id":1}'));
    expect(r).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    r = await refused(await post(`[${Array.from({ length: 101 }, () => ping).join(',')}]`));
    expect(r).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
    r = await refused(await post(call(10, 'echo', { text: 'x'.repeat(9_000) })));
    expect(r).toMatchObject({ status: 413, body: { error: { message: expect.stringContaining('8192 bytes') } } });
    r = await refused(await post(ping, { 'mcp-protocol-version': '1999-01-01' }));
    expect(r).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('1999-01-01') } } });
    r = await refused(await post(ping, { 'mcp-session-id': 'someone-else' }));
    expect(r).toMatchObject({ status: 404, body: { error: { code: -32001 } } });
    r = await refused(await fetch(s.url, { method: 'PUT', headers: headers(), body: ping }));
    expect(r.status).toBe(405);
    r = await refused(await fetch(s.url, { headers: headers({ accept: 'application/json' }) }));
    expect(r.status).toBe(406);
    // Nothing was lost: the session still answers.
    const still = (await (await post(call(11, 'echo', { text: 'still' }))).json()) as {
      result: { content: { text: string }[] };
    };
    expect(still.result.content[0]?.text).toBe('still');
  });

  it('refuses a body over the limit even without a Content-Length, as soon as it passes it', async () => {
    const chunks = [new TextEncoder().encode(call(12, 'echo', { text: 'y'.repeat(10_000) }))];
    const body = new ReadableStream({
      pull(c) {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    const res = await fetch(s.url, { method: 'POST', headers: headers(), body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('ends the session on DELETE: later requests get 404 and open streams end', async () => {
    const other = await startTransportSession();
    const client = new Client({ name: 'sdk', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(other.url));
    await client.connect(transport);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => undefined);
    const id = transport.sessionId as string;
    const del = await fetch(other.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': id, 'mcp-protocol-version': VERSION },
    });
    expect(del.status).toBe(200);
    const after = await fetch(other.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(after.status).toBe(404);
    await client.close();
    await other.close();
  });
});

describe('McpHttpTransport resumption window', () => {
  it('says so when a resume asks for events the bounded buffer has dropped', async () => {
    const s = await startTransportSession({ eventLog: createSseEventLog({ maxEvents: 3 }) });
    try {
      const base = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': VERSION };
      const init = await fetch(s.url, {
        method: 'POST',
        headers: base,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      const headers = { ...base, 'mcp-session-id': init.headers.get('mcp-session-id') as string };
      await init.text();
      const res = await fetch(s.url, {
        method: 'POST',
        headers,
        body: call(1, 'progress', { steps: 10 }, { progressToken: 'p' }),
      });
      const primed = eventIds(await res.text())[0] as string;
      const resumed = await fetch(s.url, {
        headers: { ...headers, accept: 'text/event-stream', 'last-event-id': primed },
      });
      expect(resumed.status).toBe(400);
      expect(((await resumed.json()) as { error: { message: string } }).error.message).toMatch(
        /^Event 1 is past the resumption window: the session's buffer has dropped it/,
      );
    } finally {
      await s.close();
    }
  });
});
