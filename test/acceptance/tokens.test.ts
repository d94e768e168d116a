/**
 * API tokens (SPEC X1): made once, hashed, bound to a bot's view, revoked from the next
 * request on — inside an open MCP session too.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { runMain } from '../support/run-main.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const fixture = (prefix: string) => ({
  command: process.execPath,
  args: [GATEWAY_SERVER],
  env: { TOOL_PREFIX: prefix },
});

describe('API tokens', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { alpha: fixture('a_'), beta: fixture('b_') },
      bots: { researcher: { removedServers: ['beta'] } },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
  }, 30_000);
  afterAll(() => svc?.stop());

  const create = (body: unknown) =>
    svc.api<{ id: string; token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("gives a bot's token that bot's view, and revokes it on the next request inside an open session", async () => {
    const made = await create({ name: 'research agent', bot: 'researcher' });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^bnt_[A-Za-z0-9_-]{32}$/);
    const agent = await connectHttpClient(`${svc.service.url}/mcp`, {}, made.body.token);
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toContain('alpha__a_echo');
    expect(names.some((n) => n.startsWith('beta__'))).toBe(false);
    expect((await agent.callTool({ name: 'alpha__a_echo', arguments: { text: 'ok' } })).content).toEqual([
      { type: 'text', text: 'echo:ok' },
    ]);
    await expect(agent.callTool({ name: 'beta__b_echo', arguments: { text: 'no' } })).rejects.toThrow(
      /not available in this view/,
    );
    // A valid agent token on the control API is told what it is for (403), not called invalid.
    const onApi = await fetch(`${svc.service.url}/api/servers`, {
      headers: { authorization: `Bearer ${made.body.token}` },
    });
    expect(onApi.status).toBe(403);
    expect(await onApi.json()).toEqual({
      error: { code: 'forbidden', message: 'this token is for the MCP endpoints' },
    });

    const owns = () => svc.service.gateway.sessions().some((x) => x.clientId === made.body.id);
    expect(owns()).toBe(true);
    const revoked = await svc.api(`/api/tokens/${made.body.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    // Its open session is ended too: nothing more reaches it on open streams.
    expect(owns()).toBe(false);
    await expect(agent.listTools()).rejects.toThrow(/401|Unauthorized|invalid bearer token/);
    await agent.close().catch(() => undefined);
    expect((await svc.api(`/api/tokens/${made.body.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lists tokens without their secret, stores only a hash, and refuses unknown bots', async () => {
    const made = await create({ name: 'plain client' });
    const { body } = await svc.api<{ tokens: { id: string; name: string; bot: string | null; prefix: string }[] }>(
      '/api/tokens',
    );
    const listed = body.tokens.find((t) => t.id === made.body.id);
    expect(listed).toMatchObject({ name: 'plain client', bot: null, prefix: made.body.token.slice(0, 12) });
    expect(JSON.stringify(body)).not.toContain(made.body.token);
    const db = await readFile(join(svc.home, 'boternity.db'));
    expect(db.includes(Buffer.from(made.body.token))).toBe(false);
    const client = await connectHttpClient(`${svc.service.url}/mcp`, {}, made.body.token);
    expect((await client.listTools()).tools.some((t) => t.name.startsWith('beta__'))).toBe(true);
    await client.close();
    expect((await create({ name: 'x', bot: 'ghost' })).status).toBe(400);
    expect((await create({ nom: 'x' })).status).toBe(400);
    expect(
      (await fetch(`${svc.service.url}/api/tokens`, { headers: { authorization: 'Bearer bnt_forged' } })).status,
    ).toBe(401);
  });

  it('bnity token create/list/revoke work through the service', async () => {
    // The commands in this process (`main`); the binary's own run of one: test/cli/serve-postgres.test.ts.
    const env = { BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_HOME: svc.home };
    const made = await runMain(
      ['token', 'create', '--name', 'from-cli', '--bot', 'researcher', '--json', '--url', svc.service.url],
      env,
    );
    expect(made.code).toBe(0);
    const { id, token } = JSON.parse(made.stdout) as { id: string; token: string };
    expect(token).toMatch(/^bnt_/);
    const list = await runMain(['token', 'list', '--url', svc.service.url], env);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+from-cli\\s+researcher\\s+`, 'm'));
    expect(list.stdout).not.toContain(token);
    expect((await runMain(['token', 'revoke', id, '--url', svc.service.url], env)).code).toBe(0);
    const missing = await runMain(['token', 'revoke', '--url', svc.service.url], env);
    expect(missing.code).toBe(2);
  });

  it("refuses another token's use of a session id (the session belongs to the token that opened it)", async () => {
    const other = await create({ name: 'intruder' });
    const owner = await connectHttpClient(`${svc.service.url}/mcp`);
    const sessionId = (owner.transport as StreamableHTTPClientTransport).sessionId as string;
    expect(sessionId).toBeTruthy();
    const hijack = await fetch(`${svc.service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other.body.token}`,
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
    });
    expect(hijack.status).toBe(404);
    expect((await owner.listTools()).tools.length).toBeGreaterThan(0);
    await owner.close();
  });
});
