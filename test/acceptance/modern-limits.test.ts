/**
 * Rate limits hold for MCP 2026-07-28 requests (X3, ADR 013): with no session to count,
 * each modern request is counted against its token, and over the limit it gets the 429
 * and JSON-RPC error a 2025 request gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectV2Client, envelope, postModern } from '../support/modern-client.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('rate limits on the modern era', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { alpha: { command: process.execPath, args: [GATEWAY_SERVER], stderr: 'ignore' } },
      limits: { perClient: { requests: 4, perSeconds: 3600 } },
    });
  }, 30_000);
  afterAll(() => svc?.stop());

  it('counts every modern request against its token and refuses the one over the limit', async () => {
    // One admin request: the token. Everything after counts against the token alone.
    const made = await svc.api<{ token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'modern limited' }),
    });
    expect(made.status).toBe(201);
    const client = await connectV2Client(`${svc.service.url}/mcp`, 'modern', { token: made.body.token });
    // server/discover was the first; three more pass.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('alpha__echo');
    await client.callTool({ name: 'alpha__echo', arguments: { text: '1' } });
    await client.callTool({ name: 'alpha__echo', arguments: { text: '2' } });
    await expect(client.callTool({ name: 'alpha__echo', arguments: { text: '3' } })).rejects.toThrow(
      /429|rate limit exceeded/,
    );
    const raw = await postModern(
      `${svc.service.url}/mcp`,
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope() } },
      { token: made.body.token, headers: { 'mcp-method': 'tools/list' } },
    );
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await raw.json()).toMatchObject({ id: 3, error: { code: -32000, data: { scope: 'client' } } });
    await client.close();
  });
});
