/**
 * Rate limits (SPEC X3) over real HTTP: per client and global, 429 with `Retry-After`, a
 * JSON-RPC error on `/mcp`, and a hot reload of `limits` taking effect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInitialize } from '../support/initialize.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const config = (perClient: number, global: number) => ({
  mcpServers: {},
  limits: { perClient: { requests: perClient, perSeconds: 60 }, global: { requests: global, perSeconds: 60 } },
});

type ApiError = { error: { code: string; message: string } };
type RpcError = {
  jsonrpc: '2.0';
  error: { code: number; message: string; data: { retryAfterSeconds: number; scope: string } };
  id: unknown;
};

describe('rate limits', () => {
  let svc: TestService;
  let clientB: string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  // Client A is the admin token, on the API; client B is an issued token, on /mcp.
  const apiA = () => fetch(`${svc.service.url}/api/servers`, { headers: bearer(TEST_TOKEN) });
  const mcpA = () => postInitialize(`${svc.service.url}/mcp`, bearer(TEST_TOKEN));
  const mcpB = () => postInitialize(`${svc.service.url}/mcp`, bearer(clientB));

  beforeAll(async () => {
    svc = await startTestService(config(5, 8));
    // A's first request (of 5; global 1 of 8).
    const made = await svc.api<{ id: string; token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'c2' }),
    });
    expect(made.status).toBe(201);
    clientB = made.body.token;
  }, 30_000);
  afterAll(() => svc?.stop());

  it('throttles a client over its limit with Retry-After while another client is served', async () => {
    for (let i = 0; i < 4; i++) expect((await apiA()).status).toBe(200);
    const over = await apiA();
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await over.json()).toEqual({
      error: { code: 'rate_limited', message: `rate limit exceeded (client): retry after ${retryAfter} s` },
    } satisfies ApiError);
    // A stays throttled; its refused requests do not spend the global budget (5 of 8 used).
    expect((await apiA()).status).toBe(429);
    expect((await mcpB()).status).toBe(200);
  });

  it('holds the global limit across clients', async () => {
    expect((await mcpB()).status).toBe(200);
    expect((await mcpB()).status).toBe(200);
    const over = await mcpB();
    expect(over.status).toBe(429);
    const body = JSON.parse(over.body) as RpcError;
    expect(body.error.data.scope).toBe('global');
    expect(body.error.code).toBe(-32000);
  });

  it('answers an MCP POST over the limit with a JSON-RPC error carrying the request id', async () => {
    const over = await mcpA();
    expect(over.status).toBe(429);
    const body = JSON.parse(over.body) as RpcError;
    const seconds = body.error.data.retryAfterSeconds;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(body).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `rate limit exceeded: retry after ${seconds} s`,
        data: { retryAfterSeconds: seconds, scope: 'client' },
      },
      id: 1,
    } satisfies RpcError);
    const raw = await fetch(`${svc.service.url}/mcp`, { method: 'GET', headers: bearer(TEST_TOKEN) });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await raw.json()) as RpcError).id).toBeNull();
  });

  it('takes a raised limit from a hot reload', async () => {
    await svc.writeConfig(config(100, 200));
    await waitFor(async () => (await apiA()).status === 200, { what: 'the raised limit to apply' });
    expect((await mcpA()).status).toBe(200);
    expect((await mcpB()).status).toBe(200);
  });
});
