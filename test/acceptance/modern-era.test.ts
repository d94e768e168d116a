import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../support/everything.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { connectV2Client, envelope, MODERN, postModern } from '../support/modern-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
const quiet = { stderr: 'ignore' } as const;
const config = {
  mcpServers: {
    everything: { command: node, args: [EVERYTHING_BIN, 'stdio'], ...quiet },
    alpha: { command: node, args: [GATEWAY_SERVER], env: { TOOL_PREFIX: 'a_' }, ...quiet },
  },
  bots: { researcher: { removedServers: ['alpha', 'beta'] } },
  // Short enough for the expiry test to wait out, long enough for an auto-fulfilling client.
  gateway: { inputRequestTimeoutMs: 2_000 },
};

/** List and call tools, read a resource, get a prompt and complete an argument of server-everything. */
async function exercise(client: Client, prefix: string) {
  const echoed = await client.callTool({ name: `${prefix}echo`, arguments: { message: 'modern hello' } });
  expect(JSON.stringify(echoed.content)).toContain('modern hello');
  const [first] = (await client.listResources()).resources;
  expect((await client.readResource({ uri: first?.uri as string })).contents.length).toBeGreaterThan(0);
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain(`${prefix}simple-prompt`);
  const prompt = await client.getPrompt({ name: `${prefix}simple-prompt`, arguments: {} });
  expect(prompt.messages.length).toBeGreaterThan(0);
  const completion = await client.complete({
    ref: { type: 'ref/prompt', name: `${prefix}completable-prompt` },
    argument: { name: 'department', value: 'S' },
  });
  expect(completion.completion.values).toEqual(['Sales', 'Support']);
}

describe('MCP 2026-07-28 beside 2025-11-25', () => {
  let svc: TestService;
  const clients: Array<{ close(): Promise<void> }> = [];
  const url = (path: string) => `${svc.service.url}${path}`;
  const modern = async (path: string, options: Parameters<typeof connectV2Client>[2] = {}) => {
    const client = await connectV2Client(url(path), 'modern', options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    svc = await startTestService(config);
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await svc?.stop();
  });

  it('serves a pinned modern client on /mcp: discover, lists with cache hints, tools, resources, prompts, completions', async () => {
    const client = await modern('/mcp');
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('boternity');
    const tools = await client.listTools();
    const names = tools.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'alpha__a_echo']));
    expect(tools).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    await exercise(client, 'everything__');
  });

  it.each([
    ['/mcp/servers/everything', ''],
    ['/mcp/bots/researcher', 'everything__'],
  ])('serves a pinned modern client on %s: tools, resources, prompts, completions', async (path, prefix) => {
    const client = await modern(path);
    expect(client.getProtocolEra()).toBe('modern');
    await exercise(client, prefix);
  });

  it("answers /mcp/servers/{name} with the upstream's own identity and the same results as a 2025 client", async () => {
    const client = await modern('/mcp/servers/everything');
    const legacy = await connectHttpClient(url('/mcp/servers/everything'));
    clients.push(legacy);
    expect(client.getServerVersion()).toEqual(legacy.getServerVersion());
    expect(client.getServerVersion()?.name).not.toBe('boternity');
    expect(client.getInstructions()).toBe(legacy.getInstructions());
    const tools = await client.listTools();
    expect(tools.cacheScope).toBe('public');
    expect(tools.tools.map((t) => t.name).sort()).toEqual((await legacy.listTools()).tools.map((t) => t.name).sort());
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } });
    expect(sum.content).toEqual((await legacy.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } })).content);
  });

  it('ends an auto client on the modern era, and a legacy v2 client on 2025-11-25', async () => {
    const auto = await connectV2Client(url('/mcp'), 'auto');
    clients.push(auto);
    expect(auto.getProtocolEra()).toBe('modern');
    expect((await auto.listTools()).tools.length).toBeGreaterThan(0);
    const legacy = await connectV2Client(url('/mcp'), 'legacy');
    clients.push(legacy);
    expect(legacy.getProtocolEra()).toBe('legacy');
    const echoed = await legacy.callTool({ name: 'alpha__a_echo', arguments: { text: 'old' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'echo:old' }]);
  });

  it('asks a modern client for sampling and elicitation as input_required, and relays its answers', async () => {
    const asked: string[] = [];
    const client = await modern('/mcp', { capabilities: { sampling: {}, elicitation: { form: {} } } });
    client.setRequestHandler('sampling/createMessage', async (request) => {
      asked.push('sampling');
      return {
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: `sampled ${JSON.stringify(request.params.messages[0]?.content).length}` },
      };
    });
    client.setRequestHandler('elicitation/create', async () => {
      asked.push('elicitation');
      return { action: 'accept', content: { name: 'Ada', check: true, color: 'red' } };
    });
    const sampled = await client.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'ping', maxTokens: 10 },
    });
    expect(JSON.stringify(sampled.content)).toContain('sampled');
    const elicited = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited.content)).toContain('Ada');
    expect(asked).toEqual(['sampling', 'elicitation']);
  });

  it("gives a bot token only its bot's view, and refuses a revoked token on its next request", async () => {
    const made = await svc.api<{ id: string; token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'modern bot agent', bot: 'researcher' }),
    });
    expect(made.status).toBe(201);
    const client = await modern('/mcp', { token: made.body.token });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names.some((n) => n.startsWith('alpha__'))).toBe(false);
    await expect(client.callTool({ name: 'alpha__a_echo', arguments: { text: 'no' } })).rejects.toThrow(
      /not available in this view/,
    );
    const onBot = await modern('/mcp/bots/researcher', { token: made.body.token });
    expect((await onBot.listTools()).tools.map((t) => t.name)).toContain('everything__echo');
    expect((await svc.api(`/api/tokens/${made.body.id}`, { method: 'DELETE' })).status).toBe(204);
    await expect(client.listTools()).rejects.toThrow(/401|invalid|token/i);
  });

  it('gets tools/list_changed on subscriptions/listen when an upstream is added, only in its view', async () => {
    const all = await modern('/mcp');
    const bot = await modern('/mcp/bots/researcher');
    const heard = { all: 0, bot: 0 };
    all.setNotificationHandler('notifications/tools/list_changed', () => {
      heard.all += 1;
    });
    bot.setNotificationHandler('notifications/tools/list_changed', () => {
      heard.bot += 1;
    });
    const listenAll = await all.listen({ toolsListChanged: true });
    const listenBot = await bot.listen({ toolsListChanged: true });
    expect(listenAll.honoredFilter).toEqual({ toolsListChanged: true });
    await svc.writeConfig({
      ...config,
      mcpServers: {
        ...config.mcpServers,
        beta: { command: node, args: [GATEWAY_SERVER], env: { TOOL_PREFIX: 'b_' }, ...quiet },
      },
    });
    await waitFor(() => heard.all > 0, { what: 'tools/list_changed on /mcp' });
    expect((await all.listTools()).tools.map((t) => t.name)).toContain('beta__b_echo');
    expect(heard.bot).toBe(0);
    await listenAll.close();
    await listenBot.close();
  });

  it('gets resources/updated on a listen stream for the resources it names', async () => {
    const client = await modern('/mcp/servers/everything');
    const [resource] = (await client.listResources()).resources;
    const uri = resource?.uri as string;
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    const listening = await client.listen({ resourceSubscriptions: [uri] });
    expect(listening.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await waitFor(() => updates.includes(uri), { what: 'resources/updated on the listen stream' });
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await listening.close();
  });

  it('expires an input request nobody answers: the upstream gets a clear error, the state is refused after', async () => {
    const call = (params: Record<string, unknown>) =>
      postModern(
        url('/mcp'),
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: {
            name: 'alpha__a_ask',
            arguments: { prompt: 'anyone?' },
            ...params,
            _meta: envelope({ sampling: {} }),
          },
        },
        { headers: { 'mcp-method': 'tools/call', 'mcp-name': 'alpha__a_ask' } },
      );
    const asked = await call({});
    expect(asked.status).toBe(200);
    const { result } = (await asked.json()) as {
      result: { resultType: string; requestState: string; inputRequests: Record<string, { method: string }> };
    };
    expect(result.resultType).toBe('input_required');
    expect(Object.values(result.inputRequests).map((r) => r.method)).toEqual(['sampling/createMessage']);
    const expired = await waitFor(
      async () => {
        const { body } = await svc.api<{ entries: Array<{ success: boolean; error: string | null }> }>(
          '/api/audit?event=sampling_request&server=alpha',
        );
        return body.entries.find((e) => !e.success && /did not answer/.test(e.error ?? '')) ?? null;
      },
      { what: 'the expired sampling request in the audit' },
    );
    expect(expired.error).toBe('the agent did not answer sampling/createMessage within 2 s (an input_required round)');
    const retried = await call({
      requestState: result.requestState,
      inputResponses: {
        [Object.keys(result.inputRequests)[0] as string]: {
          role: 'assistant',
          model: 'late',
          content: { type: 'text', text: 'too late' },
        },
      },
    });
    expect(await retried.json()).toMatchObject({
      id: 9,
      error: { code: -32602, message: 'Invalid or expired requestState' },
    });
  });

  it("refuses a missing Mcp-Method header, a header that disagrees with the body, and no client capabilities with the spec's errors", async () => {
    const post = (headers: Record<string, string>, meta: Record<string, unknown>) =>
      postModern(url('/mcp'), { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta } }, { headers });
    const whole = envelope();
    const noHeader = await post({}, whole);
    expect(noHeader.status).toBe(400);
    expect(await noHeader.json()).toMatchObject({ id: 7, error: { code: expect.any(Number) } });
    const mismatch = await post({ 'mcp-method': 'prompts/list' }, whole);
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ id: 7, error: { code: -32020 } });
    const noCapabilities = await post(
      { 'mcp-method': 'tools/list' },
      { 'io.modelcontextprotocol/protocolVersion': MODERN },
    );
    expect(noCapabilities.status).toBe(400);
    expect(await noCapabilities.json()).toMatchObject({ id: 7, error: { code: -32602 } });
    // Nothing was lost: the same request, whole, is answered.
    const answered = await post({ 'mcp-method': 'tools/list' }, whole);
    expect(answered.status).toBe(200);
  });
});
