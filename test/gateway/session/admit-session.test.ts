/**
 * The caps on agent sessions (SPEC X8) on the real service over HTTP, set small: one token
 * opening sessions without end only churns its own (the oldest idle go first), a token
 * whose sessions are all busy is refused with a JSON-RPC error, the total cap refuses a
 * newcomer, and other tokens keep working throughout; `/metrics` counts the sessions.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../../support/fixtures.js';
import { postInitialize } from '../../support/initialize.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

describe('session caps', () => {
  let svc: TestService;
  const tokens: Record<string, string> = {};
  const clients: Client[] = [];
  const connect = async (token: string) => {
    const client = await connectHttpClient(`${svc.service.url}/mcp`, {}, token);
    clients.push(client);
    return client;
  };
  const sessionsMetric = async () => {
    const text = await (
      await fetch(`${svc.service.url}/metrics`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })
    ).text();
    // The resumption buffers' bytes are there too (none held: every answer went as JSON).
    expect(text).toMatch(/^boternity_session_buffer_bytes 0$/m);
    // And the SSE streams let go for not reading (none here), by kind.
    expect(text).toMatch(/^boternity_sse_streams_closed_slow_reader_total\{stream="mcp_get"\} 0$/m);
    return Number(/^boternity_sessions\{endpoint="\/mcp"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };
  const listTools = (sessionId: string, token: string) =>
    fetch(`${svc.service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { gw: { command: process.execPath, args: [GATEWAY_SERVER] } },
      gateway: { maxSessions: 6, maxSessionsPerToken: 3 },
    });
    for (const name of ['a', 'b', 'c']) {
      const made = await svc.api<{ token: string }>('/api/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      tokens[name] = made.body.token;
    }
    await waitFor(async () => (await svc.server('gw'))?.state === 'connected', { what: 'gw connected' });
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await svc?.stop();
  });

  it('a token opening sessions without end keeps its cap: its oldest idle sessions go first; others work on', async () => {
    const b = await connect(tokens.b as string);
    const opened: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { status, body } = await postInitialize(`${svc.service.url}/mcp`, {
        authorization: `Bearer ${tokens.a}`,
      });
      expect(status).toBe(200);
      const id = svc.service.gateway.sessions().at(-1)?.id as string;
      expect(body).toContain('"protocolVersion"');
      opened.push(id);
    }
    const ofA = svc.service.gateway.sessions().filter((s) => s.clientId !== 'admin' && s.owner?.startsWith('token:'));
    expect(ofA.filter((s) => opened.includes(s.id)).map((s) => s.id)).toEqual(opened.slice(-3));
    expect(await sessionsMetric()).toBe(4);
    // The first ones were closed to make room: their ids are gone; the newest answers.
    expect((await listTools(opened[0] as string, tokens.a as string)).status).toBe(404);
    expect((await listTools(opened.at(-1) as string, tokens.a as string)).status).toBe(200);
    expect((await b.callTool({ name: 'gw__echo', arguments: { text: 'still here' } })).content).toEqual([
      { type: 'text', text: 'echo:still here' },
    ]);
  });

  it('refuses a token whose sessions are all busy (429), and anyone over the total (503), in one JSON-RPC line', async () => {
    const busy = await Promise.all([0, 1, 2].map(() => connect(tokens.a as string)));
    const calls = busy.map((client) =>
      client.callTool({ name: 'gw__slow', arguments: { ms: 60_000 } }).catch((error: unknown) => error),
    );
    const ids = busy.map((c) => c.transport?.sessionId);
    const ofA = () => svc.service.gateway.sessions().filter((s) => ids.includes(s.id));
    await waitFor(() => ofA().length === 3 && ofA().every((s) => s.requests.size === 1), { what: '3 busy sessions' });
    const refused = await postInitialize(`${svc.service.url}/mcp`, { authorization: `Bearer ${tokens.a}` });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'too many sessions for this token (gateway.maxSessionsPerToken: 3), and none of them idle to close; end some with DELETE',
      },
    });
    // a: 3, b: 1 → b opens two more to reach the total of 6; c then has nothing of its own to close.
    await connect(tokens.b as string);
    await connect(tokens.b as string);
    const full = await postInitialize(`${svc.service.url}/mcp`, { authorization: `Bearer ${tokens.c}` });
    expect(full.status).toBe(503);
    expect(JSON.parse(full.body).error.message).toBe(
      'too many agent sessions on this service (gateway.maxSessions: 6); retry later',
    );
    // Ending the busy sessions frees their places (their calls are cancelled upstream).
    await Promise.all(
      busy.map(async (c) => {
        await (c.transport as StreamableHTTPClientTransport).terminateSession();
        await c.close();
      }),
    );
    await Promise.all(calls);
    await waitFor(() => ofA().length === 0, { what: 'busy sessions closed' });
    expect((await postInitialize(`${svc.service.url}/mcp`, { authorization: `Bearer ${tokens.c}` })).status).toBe(200);
  });
});
