/**
 * The MCP endpoints as served beside the Hono app (ADR 006), over real HTTP: the body
 * limit (`gateway.maxBodyBytes`, 413), unknown paths after the token check, and an agent
 * request nested too deeply to forward: each a clear error, and the session goes on.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../../support/fixtures.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { connectV2Client, envelope, postModern } from '../../support/modern-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

type AuditRows = { entries: { eventType: string; toolName: string; inputHash: string | null; success: boolean }[] };

describe('MCP endpoints', () => {
  let svc: TestService;
  let agent: Client;
  const auth = { authorization: `Bearer ${TEST_TOKEN}` };
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } },
      gateway: { maxBodyBytes: 300_000 },
    });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
  });

  it('refuses a body over gateway.maxBodyBytes with 413 and a JSON-RPC error; the session goes on', async () => {
    const big = 'x'.repeat(310_000);
    await expect(agent.callTool({ name: 'tiny__echo', arguments: { text: big } })).rejects.toThrow(/Payload Too Large/);
    const fresh = await fetch(`${svc.service.url}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: big } }),
    });
    expect(fresh.status).toBe(413);
    expect(await fresh.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 300000 bytes' },
      id: null,
    });
    const echoed = await agent.callTool({ name: 'tiny__echo', arguments: { text: 'after' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'after' }]);
  });

  it('answers 401 without a token and 404 with one for a path that is no endpoint', async () => {
    const path = `${svc.service.url}/mcp/nothing/here`;
    expect((await fetch(path)).status).toBe(401);
    const found = await fetch(path, { headers: auth });
    expect(found.status).toBe(404);
    expect(await found.json()).toEqual({ error: { code: 'not_found', message: 'no route for GET /mcp/nothing/here' } });
  });

  it('tells a client which bot or server does not exist: a 404 whose JSON-RPC error names it, in both eras', async () => {
    const ghost = `${svc.service.url}/mcp/bots/ghost`;
    await expect(connectHttpClient(ghost)).rejects.toThrow(/bot \\"ghost\\" does not exist/);
    await expect(connectV2Client(ghost, 'auto')).rejects.toThrow(/bot \\"ghost\\" does not exist/);
    const initialize = await fetch(ghost, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(initialize.status).toBe(404);
    expect(await initialize.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'bot "ghost" does not exist', data: { code: 'unknown_bot' } },
    });
    const discover = await postModern(
      ghost,
      { jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: envelope() } },
      { headers: { 'mcp-method': 'server/discover' } },
    );
    expect(discover.status).toBe(404);
    expect(await discover.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'bot "ghost" does not exist', data: { code: 'unknown_bot' } },
    });
    await expect(connectHttpClient(`${svc.service.url}/mcp/servers/nosuch`)).rejects.toThrow(
      /server \\"nosuch\\" is not configured/,
    );
    // The endpoint that exists goes on as before.
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('tiny__echo');
  });

  it('refuses arguments nested too deeply to forward, audits the call by hash, and goes on', async () => {
    // Built as text: no JSON.stringify (the SDK client's included) can write it.
    const depth = 50_000;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tiny__echo","arguments":{"text":"x","deep":${'['.repeat(depth)}0${']'.repeat(depth)}}}}`;
    const res = await fetch(`${svc.service.url}/mcp`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': agent.transport?.sessionId ?? '',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'the request is nested too deeply to send to the server' },
    });
    expect((await agent.callTool({ name: 'tiny__echo', arguments: { text: 'ok' } })).content).toEqual([
      { type: 'text', text: 'ok' },
    ]);
    const rows = await waitFor(async () => {
      const { body } = await svc.api<AuditRows>('/api/audit?tool=echo&event=tool_call');
      return body.entries.find((e) => !e.success) ? body.entries : null;
    });
    const failed = rows.find((e) => !e.success);
    expect(failed?.inputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses ten 20 MB initialize bodies at once, each as soon as it passes the limit; the service goes on', async () => {
    const { request } = await import('node:http');
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const post = (declared: boolean) =>
      new Promise<{ status: number; sent: number }>((resolve, reject) => {
        const req = request(`${svc.service.url}/mcp`, {
          method: 'POST',
          headers: {
            ...auth,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(declared ? { 'content-length': String(20 * chunk.length + 1) } : {}),
          },
        });
        let sent = 0;
        req.on('response', (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        });
        // The service closes the connection: writes after that fail, which is the point.
        req.on('error', (error) => (sent > 0 ? undefined : reject(error)));
        const write = () => {
          while (sent < 20) {
            sent += 1;
            if (!req.write(chunk)) return void req.once('drain', write);
          }
          req.end('}');
        };
        req.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"');
        write();
      });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i % 2 === 0)));
    for (const { status, sent } of results) {
      expect(status).toBe(413);
      // Refused long before the whole body: the service stops reading at the limit.
      expect(sent).toBeLessThan(20);
    }
    expect((await agent.callTool({ name: 'tiny__echo', arguments: { text: 'after' } })).content).toEqual([
      { type: 'text', text: 'after' },
    ]);
  });

  it('answers two Authorization values with a 401 that says so, on /mcp and /api alike', async () => {
    const { request } = await import('node:http');
    const get = (path: string, raw: string[]) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        // Raw headers: a repeated header stays repeated on the wire.
        const req = request(`${svc.service.url}${path}`, { method: 'GET', headers: raw });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const bearer = `Bearer ${TEST_TOKEN}`;
    const host = ['host', new URL(svc.service.url).host, 'accept', 'text/event-stream'];
    const twice = [...host, 'authorization', bearer, 'authorization', bearer];
    const joined = [...host, 'authorization', `${bearer}, Bearer other`];
    const said = {
      error: { code: 'unauthorized', message: 'the Authorization header has 2 values; send one: Bearer <token>' },
    };
    for (const path of ['/mcp', '/api/servers']) {
      for (const raw of [twice, joined]) {
        const answer = await get(path, raw);
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.body)).toEqual(said);
      }
    }
  });
});
