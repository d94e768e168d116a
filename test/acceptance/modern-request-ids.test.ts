/**
 * MCP 2026-07-28 is stateless (no session): two requests under one id at once are two
 * requests, each answered on its own POST, with no stream left without an end; and bad
 * params are refused with -32602 in one line, as on a 2025-11-25 session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { envelope, postModern } from '../support/modern-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('MCP 2026-07-28 request ids and params', () => {
  let svc: TestService;
  const mcp = () => `${svc.service.url}/mcp`;
  const request = (id: number, method: string, params: Record<string, unknown>) =>
    postModern(
      mcp(),
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } },
      { headers: { 'mcp-method': method, ...(method === 'tools/call' ? { 'mcp-name': String(params.name) } : {}) } },
    );

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { alpha: { command: process.execPath, args: [GATEWAY_SERVER], stderr: 'ignore' } },
    });
    await waitFor(async () => (await svc.server('alpha'))?.state === 'connected', { what: 'alpha connected' });
  }, 30_000);
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers two requests in flight under one id, each on its own POST', async () => {
    const slow = request(7, 'tools/call', { name: 'alpha__slow', arguments: { ms: 1_500 } });
    const quick = await request(7, 'tools/call', { name: 'alpha__echo', arguments: { text: 'second' } });
    expect(quick.status).toBe(200);
    expect(JSON.stringify(await quick.json())).toContain('echo:second');
    const first = await slow;
    expect(first.status).toBe(200);
    const text = await first.text();
    expect(text).toContain('"id":7');
    expect(text).toContain('slow done');
  });

  it('refuses a bad completion context, and a bad list cursor, with -32602 and one line', async () => {
    const answer = await request(3, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'alpha__p' },
      argument: { name: 'n', value: 'A' },
      context: { arguments: 'n=A' },
    });
    const body = (await answer.json()) as { id: number; error: { code: number; message: string } };
    expect(body).toMatchObject({
      id: 3,
      error: {
        code: -32602,
        message:
          'invalid completion/complete params: context.arguments: Invalid input: expected record, received string',
      },
    });
    // Nothing was lost: the view goes on.
    const listed = await request(4, 'tools/list', {});
    expect(JSON.stringify(await listed.json())).toContain('alpha__echo');
    const badCursor = (await (await request(5, 'tools/list', { cursor: 5 })).json()) as { error: { message: string } };
    expect(badCursor.error.message).toMatch(/^invalid tools\/list params: cursor: /);
  });
});
