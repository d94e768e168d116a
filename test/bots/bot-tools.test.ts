import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Progress,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../src/bots/create-bot.js';
import { createBotPrompts } from '../../src/bots/create-bot-prompts.js';
import { createBotTools } from '../../src/bots/create-bot-tools.js';
import { deleteSkill } from '../../src/bots/delete-skill.js';
import type { BotChange, BotTools, BotToolsAccess } from '../../src/bots/ports.js';
import { saveSkill } from '../../src/bots/save-skill.js';
import { saveWorkflow } from '../../src/bots/save-workflow.js';
import { updateBot } from '../../src/bots/update-bot.js';
import { ForbiddenError, UnknownBotToolError } from '../../src/errors.js';
import type { Caller } from '../../src/guard/caller.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { connectDemoServer, createSdkToolCaller } from '../support/bot-tool-caller.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { waitFor } from '../support/wait-for.js';

type Deps = Awaited<ReturnType<typeof createTestBotDeps>>;

const admin: Caller = { kind: 'admin' };
const client: Caller = { kind: 'client', tokenId: 't1', name: 'cursor' };
const alphaToken: Caller = { kind: 'bot', slug: 'alpha', tokenId: 't2' };
const names = (tools: Tool[]) => tools.map((t) => t.name);
const context = (caller: Caller, extra: Partial<BotToolsAccess> = {}) => ({
  caller,
  signal: new AbortController().signal,
  ...extra,
});
const structured = (result: { structuredContent?: unknown }) => result.structuredContent as Record<string, unknown>;

describe('bot tools and prompts', () => {
  let deps: Deps;
  let fixture: OpenAiFixture;
  let demo: Client;
  let tools: BotTools;
  const long = `l${'o'.repeat(60)}ng`;

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    demo = await connectDemoServer();
    deps = await createTestBotDeps({ tools: createSdkToolCaller({ servers: { demo } }) });
    tools = createBotTools(deps);
    const provider = { baseUrl: fixture.baseUrl, model: 'm' };
    await createBot(deps, { slug: 'alpha', name: 'Alpha', description: 'First <!-- hidden --> bot', provider });
    await createBot(deps, { slug: 'beta', name: 'Beta' });
    await createBot(deps, { slug: long, name: 'Long' });
    await saveSkill(deps, 'alpha', {
      name: 'greet',
      description: 'Greets someone',
      template: 'Say hello to {{who}}.',
      arguments: [{ name: 'who', required: true, values: ['world', 'team'] }],
    });
    await saveSkill(deps, 'beta', { name: 'other', template: 'x' });
    await saveWorkflow(deps, 'alpha', {
      name: 'twice',
      steps: [
        { id: 'a', tool: 'demo__echo', arguments: { text: '{{input.text}}' } },
        { id: 'b', tool: 'demo__upper', arguments: { text: '{{steps.a.text}}' } },
      ],
    });
  });
  afterAll(async () => {
    await deps.close();
    await Promise.all([demo.close(), fixture.close()]);
  });

  it('lists every tool with truthful annotations and an object input schema for admin and client tokens', async () => {
    const listed = await tools.list({ caller: admin });
    expect(names(listed).slice(0, 5)).toEqual(['list_bots', 'get_bot', 'trigger_workflow', 'create_bot', 'delete_bot']);
    expect(names(listed)).toEqual(
      expect.arrayContaining(['chat__alpha', 'get_memories__beta', 'add_memory__alpha', 'list_skills__beta']),
    );
    for (const tool of listed) {
      expect(tool.inputSchema.type).toBe('object');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof tool.annotations?.[hint]).toBe('boolean');
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
    const byName = new Map(listed.map((t) => [t.name, t]));
    expect(byName.get('list_bots')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('delete_bot')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.get('chat__alpha')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(byName.get('create_bot')?.inputSchema).toMatchObject({
      required: ['slug', 'name'],
      additionalProperties: false,
    });
    expect(Object.keys(byName.get('create_bot')?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['slug', 'name', 'provider', 'samplingBudgetTokens']),
    );
    expect(byName.get('chat__alpha')?.inputSchema).toMatchObject({ required: ['message'] });
    expect(byName.get('chat__alpha')?.description).toMatch(/^Chat with bot "Alpha" \(First\s+bot\)/);
    expect(byName.get('chat__alpha')?.description).not.toContain('hidden');
    expect(names(await tools.list({ caller: client }))).toEqual(names(listed));
  });

  it('gives a bot token its own bot only, never create_bot or delete_bot', async () => {
    const listed = names(await tools.list({ caller: alphaToken }));
    expect(listed).toEqual([
      'get_bot',
      'trigger_workflow',
      'chat__alpha',
      'get_memories__alpha',
      'add_memory__alpha',
      'list_skills__alpha',
    ]);
    await expect(tools.call('create_bot', { slug: 'x', name: 'X' }, context(alphaToken))).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(tools.call('delete_bot', { slug: 'beta' }, context(alphaToken))).rejects.toThrow(
      'delete_bot is not available to bot "alpha"',
    );
    await expect(tools.call('get_memories__beta', {}, context(alphaToken))).rejects.toBeInstanceOf(UnknownBotToolError);
    await expect(tools.call('list_bots', {}, context(alphaToken))).rejects.toThrow('no bot tool "list_bots" here');
    await expect(tools.call('chat__ghost', { message: 'hi' }, context(admin))).rejects.toThrow(
      'no bot tool "chat__ghost" here',
    );
    await expect(tools.list({ caller: alphaToken, bot: 'beta' })).rejects.toThrow(
      'this token belongs to bot "alpha", not "beta"',
    );
    expect(structured(await tools.call('get_bot', {}, context(alphaToken)))).toMatchObject({ bot: { slug: 'alpha' } });
    expect(names(await tools.list({ caller: admin, bot: 'beta' }))).toEqual([
      'get_bot',
      'trigger_workflow',
      'chat__beta',
      'get_memories__beta',
      'add_memory__beta',
      'list_skills__beta',
    ]);
  });

  it('creates a bot that list_bots shows and whose tools appear, then deletes it, signalling each change', async () => {
    const seen: BotChange[] = [];
    const stop = tools.onChange((change) => seen.push(change));
    const created = await tools.call('create_bot', { slug: 'gamma', name: 'Gamma' }, context(client));
    expect(created.isError).toBeUndefined();
    expect(structured(await tools.call('list_bots', {}, context(client))).bots).toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'gamma' })]),
    );
    expect(names(await tools.list({ caller: client }))).toContain('chat__gamma');
    await tools.call('delete_bot', { slug: 'gamma' }, context(admin));
    expect(names(await tools.list({ caller: client }))).not.toContain('chat__gamma');
    expect(seen).toEqual([
      { kind: 'created', slug: 'gamma' },
      { kind: 'deleted', slug: 'gamma' },
    ]);
    stop();
    const bad = await tools.call('create_bot', { slug: 'Not OK', name: 'x' }, context(admin));
    expect(bad).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^invalid bot: slug:/) }],
    });
    expect(seen).toHaveLength(2);
  });

  it('lists from cache while no bot changes (no query), and anew after an update, a skill or a change mid-query', async () => {
    const first = await tools.list({ caller: client });
    expect(await tools.list({ caller: client })).toBe(first);
    const prompts = createBotPrompts(deps);
    const skills = await prompts.list({ caller: admin });
    expect(await prompts.list({ caller: admin })).toBe(skills);
    // The database changed behind the bots' back is not seen: proof the listing made no query.
    await deps.store.client.execute("update bots set name = 'Sneaky' where slug = 'beta'");
    expect(await tools.list({ caller: client })).toBe(first);
    await updateBot(deps, 'beta', { name: 'Beta two' });
    expect(deps.changed.at(-1)).toEqual({ kind: 'updated', slug: 'beta' });
    const updated = await tools.list({ caller: client });
    expect(updated.find((t) => t.name === 'chat__beta')?.description).toContain('"Beta two"');
    expect(await prompts.list({ caller: admin })).not.toBe(skills);
    await saveSkill(deps, 'beta', { name: 'second', template: 'y' });
    deps.changes.publish({ kind: 'skills', slug: 'beta' });
    expect((await prompts.list({ caller: admin })).map((p) => p.name)).toContain('beta__second');
    // A change published while a listing queries: that answer is not kept.
    const racing = tools.list({ caller: admin });
    deps.changes.publish({ kind: 'updated', slug: 'beta' });
    const raced = await racing;
    expect(await tools.list({ caller: admin })).not.toBe(raced);
    await deleteSkill(deps, 'beta', 'second');
    await updateBot(deps, 'beta', { name: 'Beta' });
  });

  it("refuses create_bot naming a keystore credential from an agent's token, creating nothing; the admin may", async () => {
    const provider = { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', credentialKey: 'github-token' };
    const refused = await tools.call('create_bot', { slug: 'leak', name: 'Leak', provider }, context(client));
    expect(refused).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: expect.stringMatching(
            /^provider\.credentialKey names a keystore secret: only the admin token may set it;/,
          ),
        },
      ],
    });
    expect(structured(await tools.call('list_bots', {}, context(client))).bots).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'leak' })]),
    );
    // Without the key the agent's bot is made; with it, the admin's.
    const { credentialKey: _key, ...keyless } = provider;
    expect(
      (await tools.call('create_bot', { slug: 'leak', name: 'Leak', provider: keyless }, context(client))).isError,
    ).toBeUndefined();
    expect(
      (await tools.call('create_bot', { slug: 'keyed', name: 'Keyed', provider }, context(admin))).isError,
    ).toBeUndefined();
    for (const slug of ['leak', 'keyed']) await tools.call('delete_bot', { slug }, context(admin));
  });

  it('keeps long slugs within 64 characters and still routes them', async () => {
    const memoryTool = names(await tools.list({ caller: admin })).find((n) => n.startsWith('add_memory__lo'));
    expect(memoryTool?.length).toBeLessThanOrEqual(64);
    await tools.call(memoryTool ?? '', { content: 'long names work' }, context(admin));
    const read = await tools.call(`get_memories__${long}`.slice(0, 55), {}, context(admin)).catch((e) => e);
    expect(read).toBeInstanceOf(UnknownBotToolError);
    const get = names(await tools.list({ caller: admin })).find((n) => n.startsWith('get_memories__lo')) ?? '';
    expect(structured(await tools.call(get, {}, context(admin))).memories).toMatchObject([
      { content: 'long names work' },
    ]);
  });

  it('adds and reads memories, lists skills and runs workflows through calls', async () => {
    await tools.call('add_memory__alpha', { content: 'likes tea', category: 'taste' }, context(alphaToken));
    expect(
      structured(await tools.call('get_memories__alpha', { limit: 1 }, context(alphaToken))).memories,
    ).toMatchObject([{ content: 'likes tea', category: 'taste' }]);
    expect(structured(await tools.call('list_skills__alpha', {}, context(client))).skills).toEqual([
      {
        name: 'greet',
        description: 'Greets someone',
        arguments: [{ name: 'who', required: true, values: ['world', 'team'] }],
      },
    ]);
    const run = await tools.call(
      'trigger_workflow',
      { bot: 'alpha', name: 'twice', input: { text: 'hi' } },
      context(admin),
    );
    expect(structured(run)).toMatchObject({ status: 'succeeded', output: { content: [{ type: 'text', text: 'HI' }] } });
    const own = await tools.call('trigger_workflow', { name: 'twice', input: { text: 'yo' } }, context(alphaToken));
    expect(structured(own)).toMatchObject({ bot: 'alpha', status: 'succeeded' });
    const sneaky = await tools.call('trigger_workflow', { bot: 'beta', name: 'twice' }, context(alphaToken));
    expect(sneaky).toMatchObject({ isError: true, content: [{ text: 'invalid arguments: unknown field(s) bot' }] });
    expect(await tools.call('get_memories__alpha', { limit: 'all' }, context(admin))).toMatchObject({ isError: true });
  });

  it('chats through chat__{slug}, reporting progress as the bot works', async () => {
    fixture.reply(
      { toolCalls: [{ name: 'demo__echo', arguments: { text: 'ping' } }] },
      { text: 'The echo said ping.' },
    );
    const progress: Progress[] = [];
    const result = await tools.call(
      'chat__alpha',
      { message: 'echo ping' },
      { ...context(client), onProgress: (p) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'The echo said ping.' }]);
    expect(structured(result)).toMatchObject({ rounds: 2, toolCalls: [{ name: 'demo__echo', isError: false }] });
    expect(structured(result).sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const messages = progress.map((p) => p.message);
    expect(messages).toEqual(expect.arrayContaining(['calling demo__echo', 'demo__echo answered', 'done']));
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    const mute = await tools.call('chat__beta', { message: 'hi' }, context(client));
    expect(mute).toMatchObject({ isError: true, structuredContent: { reason: 'no_provider' } });
  });

  it('serves skills as prompts: prefixed on /mcp, bare on a bot endpoint, rendered and completed', async () => {
    const prompts = createBotPrompts(deps);
    expect((await prompts.list({ caller: admin })).map((p) => p.name)).toEqual(['alpha__greet', 'beta__other']);
    expect((await prompts.list({ caller: alphaToken })).map((p) => p.name)).toEqual(['alpha__greet']);
    expect(await prompts.list({ caller: client, bot: 'alpha' })).toEqual([
      { name: 'greet', title: 'greet', description: 'Greets someone', arguments: [{ name: 'who', required: true }] },
    ]);
    expect(await prompts.get('alpha__greet', { who: 'world' }, { caller: admin })).toEqual({
      description: 'Greets someone',
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to world.' } }],
    });
    expect(await prompts.complete('greet', { name: 'who', value: 'te' }, { caller: admin, bot: 'alpha' })).toEqual({
      values: ['team'],
      total: 1,
      hasMore: false,
    });
    await expect(prompts.get('beta__other', {}, { caller: alphaToken })).rejects.toThrow(
      'no bot prompt "beta__other" here',
    );
    await expect(prompts.get('alpha__greet', {}, { caller: admin })).rejects.toThrow(
      'skill "greet" needs argument "who"',
    );
  });

  it('works behind a real SDK server: tools/list, a call with progress, and list_changed after create_bot', async () => {
    const server = new Server({ name: 'bots', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await tools.list({ caller: admin }) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const token = request.params._meta?.progressToken;
      return tools.call(request.params.name, request.params.arguments ?? {}, {
        caller: admin,
        signal: extra.signal,
        ...(token !== undefined
          ? {
              onProgress: (p: Progress) =>
                void extra.sendNotification({
                  method: 'notifications/progress',
                  params: { ...p, progressToken: token },
                }),
            }
          : {}),
      });
    });
    const stop = tools.onChange(() => void server.sendToolListChanged());
    const agent = new Client({ name: 'agent', version: '1.0.0' });
    let changed = 0;
    agent.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), agent.connect(b)]);
    try {
      fixture.reply({ text: 'hello from alpha' });
      const progress: Progress[] = [];
      const answer = await agent.callTool({ name: 'chat__alpha', arguments: { message: 'hi' } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      expect(answer.content).toEqual([{ type: 'text', text: 'hello from alpha' }]);
      await waitFor(() => progress.some((p) => p.message === 'done'), { what: 'progress "done"' });
      await agent.callTool({ name: 'create_bot', arguments: { slug: 'delta', name: 'Delta' } });
      await waitFor(() => changed > 0, { what: 'tools/list_changed' });
      expect(names((await agent.listTools()).tools)).toContain('chat__delta');
    } finally {
      stop();
      await agent.close();
    }
  });
});
