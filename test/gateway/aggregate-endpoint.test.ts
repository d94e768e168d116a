/**
 * Issue 3 acceptance: /mcp aggregates two upstreams with prefixed names (a 70-character
 * tool listed within 64 and still routed), bots see their view only, and sessions get
 * list_changed when an upstream adds a tool, drops and comes back.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { postInitialize } from '../support/initialize.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const server = (prefix: string) => ({
  command: process.execPath,
  args: [GATEWAY_SERVER],
  env: { TOOL_PREFIX: prefix },
  healthIntervalMs: 60_000,
  backoff: { baseMs: 100, capMs: 200 },
});
const config = {
  mcpServers: { alpha: server('a_'), beta: server('b_') },
  bots: {
    researcher: { removedServers: ['beta'], toolPermissions: { alpha: { denied: ['secret'] } } },
  },
};

describe('/mcp and /mcp/bots/{slug}', () => {
  let svc: TestService;
  let agent: Client;
  const changes: number[] = [];

  beforeAll(async () => {
    // A bot-bound token, as the token store will issue them: it maps to the researcher's view.
    svc = await startTestService(config, {
      verifyToken: (token) =>
        token === 'researcher-token' ? { kind: 'bot', slug: 'researcher', tokenId: 't1' } : null,
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'both connected' });
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
    agent.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes.push(Date.now());
    });
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
  });

  it('lists both servers prefixed, every name within 64 characters of [A-Za-z0-9_-]', async () => {
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['alpha__a_echo', 'beta__b_echo', 'alpha__add_tool', 'beta__secret']));
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const result = await agent.callTool({ name: 'beta__b_echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:hi' }]);
  });

  it('lists a 70-character upstream tool within 64 and still routes it', async () => {
    const long = (await agent.listTools()).tools.find(
      (t) =>
        t.description ===
        `fixture tool ${'a_a_tool_whose_name_is_exactly_seventy_characters_long_for_the_gateway'.slice(0, 70)}`,
    );
    expect(long?.name.length).toBeLessThanOrEqual(64);
    expect(long?.name.startsWith('alpha__')).toBe(true);
    const again = (await agent.listTools()).tools.find((t) => t.description === long?.description);
    expect(again?.name).toBe(long?.name);
    expect((await agent.callTool({ name: long?.name as string, arguments: {} })).content).toEqual([
      { type: 'text', text: 'long name routed' },
    ]);
  });

  it("serves a bot's view and refuses calls outside it", async () => {
    const bot = await connectHttpClient(`${svc.service.url}/mcp/bots/researcher`);
    try {
      const names = (await bot.listTools()).tools.map((t) => t.name);
      expect(names).toContain('alpha__a_echo');
      expect(names).not.toContain('alpha__secret');
      expect(names.some((n) => n.startsWith('beta__'))).toBe(false);
      await expect(bot.callTool({ name: 'beta__b_echo', arguments: { text: 'x' } })).rejects.toThrow(
        /"beta__b_echo" is not available in this view/,
      );
      await expect(bot.callTool({ name: 'alpha__secret', arguments: {} })).rejects.toThrow(
        /not available in this view/,
      );
      expect((await bot.callTool({ name: 'alpha__a_echo', arguments: { text: 'ok' } })).content).toEqual([
        { type: 'text', text: 'echo:ok' },
      ]);
    } finally {
      await bot.close();
    }
    const unknown = await postInitialize(`${svc.service.url}/mcp/bots/nobody`, {
      authorization: 'Bearer test-admin-token',
    });
    expect(unknown.status).toBe(404);
  });

  it("gives a bot-bound token its bot's view on /mcp, and nothing else", async () => {
    const bot = await connectHttpClient(`${svc.service.url}/mcp`, {}, 'researcher-token');
    try {
      const names = (await bot.listTools()).tools.map((t) => t.name);
      expect(names).toContain('alpha__a_echo');
      expect(names.filter((n) => n.startsWith('beta__') || n === 'alpha__secret')).toEqual([]);
    } finally {
      await bot.close();
    }
    const initialize = (path: string) =>
      postInitialize(`${svc.service.url}${path}`, { authorization: 'Bearer researcher-token' });
    const single = await initialize('/mcp/servers/beta');
    expect(single.status).toBe(403);
    expect(JSON.parse(single.body)).toEqual({
      error: { code: 'forbidden', message: expect.stringMatching(/single server endpoint/) },
    });
    expect((await initialize('/mcp/bots/other')).status).toBe(403);
    expect((await initialize('/mcp/bots/researcher')).status).toBe(200);
    // The control API is for the admin token only: a valid bot token is told so (403).
    expect(
      (await fetch(`${svc.service.url}/api/servers`, { headers: { authorization: 'Bearer researcher-token' } })).status,
    ).toBe(403);
  });

  it('sends list_changed when an upstream adds a tool, drops, and comes back', async () => {
    const before = changes.length;
    await agent.callTool({ name: 'alpha__add_tool', arguments: { name: 'fresh' } });
    await waitFor(() => changes.length > before, { what: 'list_changed after add_tool' });
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('alpha__fresh');

    const beta = await svc.server('beta');
    const beforeDrop = changes.length;
    process.kill(beta?.pid as number, 'SIGKILL');
    await waitFor(() => changes.length > beforeDrop, { what: 'list_changed after beta dropped' });
    const whileDown = (await agent.listTools()).tools.map((t) => t.name);
    expect(whileDown.some((n) => n.startsWith('beta__'))).toBe(false);

    const beforeBack = changes.length;
    await waitFor(async () => (await svc.server('beta'))?.state === 'connected', { what: 'beta back' });
    await waitFor(() => changes.length > beforeBack, { what: 'list_changed after beta came back' });
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('beta__b_echo');
  });
});
