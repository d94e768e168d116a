/**
 * Issue 9's acceptance on the real service (SPEC B1–B4, G6, G8, X6): a bot chats through
 * the gateway's call path (the real `openai` client against the local fixture provider;
 * real MCP upstreams: filesystem, server-everything, the attack and rug-pull servers), its
 * view's permissions, quarantine and sanitizer apply, its skills are prompts, its workflows
 * run, the bot tools follow creation and deletion, and a `"sampling": "bot"` server has its
 * sampling answered by the bot's provider, charged to both budgets.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type Progress, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POISON } from '../support/bot-tool-caller.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { fixtureServer } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const require = createRequire(import.meta.url);
const FS_BIN = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);
const node = process.execPath;

type Entry = { toolName: string | null; botId: string | null; eventType: string; success: boolean };
type Text = { type: string; text: string };

describe('bots, wired', { timeout: 90_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let admin: Client;
  let dir: string;
  const post = <T>(path: string, body: unknown) =>
    svc.api<T>(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const put = <T>(path: string, body: unknown) =>
    svc.api<T>(path, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const audit = async (query: string) => (await svc.api<{ entries: Entry[] }>(`/api/audit?${query}`)).body.entries;
  const offered = (n: number) => (fixture.requests[n]?.body.tools ?? []).map((t) => t.function.name);
  const textOf = (result: unknown) => ((result as { content: Text[] }).content[0]?.text ?? '') as string;

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    // Kept for the whole file (the filesystem server is rooted there).
    dir = await mkdtemp(join(tmpdir(), 'bnity-bots-'));
    await writeFile(join(dir, 'notes.txt'), 'hello');
    const quiet = { healthIntervalMs: 60_000 };
    svc = await startTestService({
      mcpServers: {
        fs: { command: node, args: [FS_BIN, dir], ...quiet },
        everything: { command: node, args: [EVERYTHING_BIN, 'stdio'], sampling: 'bot', ...quiet },
        attack: { command: node, args: [fixtureServer('attack-server.mjs')], env: { MODE: 'attack' }, ...quiet },
        rug: { command: node, args: [fixtureServer('rug-pull-server.mjs')], ...quiet },
      },
      bots: { reader: { toolPermissions: { fs: { denied: ['write_file'] } } } },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'every server connected',
      timeoutMs: 30_000,
    });
    const made = await post('/api/bots', {
      slug: 'reader',
      name: 'Reader',
      provider: { baseUrl: fixture.baseUrl, model: 'fixture-model' },
      samplingBudgetTokens: 200,
    });
    expect(made.status).toBe(201);
    admin = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await admin?.close();
    await svc?.stop();
    await fixture?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('chat__{slug} lists a directory through the gateway, with progress, audited under the bot', async () => {
    fixture.reply(
      { toolCalls: [{ name: 'fs__list_directory', arguments: { path: dir } }] },
      { text: 'There is notes.txt.' },
    );
    const progress: Progress[] = [];
    const result = await admin.callTool({ name: 'chat__reader', arguments: { message: `list ${dir}` } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(textOf(result)).toBe('There is notes.txt.');
    const { sessionId } = result.structuredContent as { sessionId: string };
    expect(progress.map((p) => p.message)).toEqual(
      expect.arrayContaining(['calling fs__list_directory', 'fs__list_directory answered', 'done']),
    );
    // The provider got the tool's answer, and the call went through the gateway as the bot.
    const toolMessage = fixture.requests.at(-1)?.body.messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('notes.txt');
    // The audit is written in batches.
    const rows = await waitFor(async () => {
      const found = await audit('bot=reader&tool=list_directory');
      return found.length > 0 ? found : null;
    });
    expect(rows[0]).toMatchObject({ eventType: 'tool_call', botId: 'reader', success: true });
    const history = await svc.api<{ chat: { messages: { role: string; toolName: string | null }[] } }>(
      `/api/bots/reader/chats/${sessionId}`,
    );
    expect(history.body.chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('never offers a denied or quarantined tool, and refuses it when the provider asks anyway', async () => {
    await admin.callTool({ name: 'rug__mutate', arguments: {} });
    await waitFor(async () => !(await admin.listTools()).tools.some((t) => t.name === 'rug__calc'), {
      what: 'rug__calc quarantined',
    });
    const before = fixture.requests.length;
    fixture.reply(
      {
        toolCalls: [
          { name: 'fs__write_file', arguments: { path: join(dir, 'x.txt'), content: 'x' } },
          { name: 'rug__calc', arguments: { a: 1, b: 2 } },
        ],
      },
      { text: 'I could not.' },
    );
    const result = await admin.callTool({ name: 'chat__reader', arguments: { message: 'write and add' } });
    expect(textOf(result)).toBe('I could not.');
    expect(offered(before)).toContain('fs__list_directory');
    expect(offered(before)).not.toContain('fs__write_file');
    expect(offered(before)).not.toContain('rug__calc');
    const refusals = (fixture.requests.at(-1)?.body.messages ?? []).filter((m) => m.role === 'tool');
    expect(refusals.map((m) => m.content)).toEqual([
      'Error: tool "fs__write_file" is not available to this bot; it was not called',
      'Error: tool "rug__calc" is not available to this bot; it was not called',
    ]);
    expect(await audit('bot=reader&tool=write_file')).toEqual([]);
    expect(await audit('bot=reader&tool=calc')).toEqual([]);
  });

  it('hands the provider a poisoned tool result sanitized', async () => {
    fixture.reply({ toolCalls: [{ name: 'attack__leak', arguments: { index: 0 } }] }, { text: 'done' });
    await admin.callTool({ name: 'chat__reader', arguments: { message: 'leak' } });
    const seen = String(fixture.requests.at(-1)?.body.messages.find((m) => m.role === 'tool')?.content);
    expect(seen.length).toBeGreaterThan(0);
    for (const absent of POISON.absent) expect(seen).not.toContain(absent);
  });

  it('serves skills as prompts, rendered with their arguments and completed', async () => {
    const skill = {
      template: 'Summarize {{text}} in a {{tone}} tone.',
      arguments: [
        { name: 'text', required: true },
        { name: 'tone', values: ['formal', 'friendly'] },
      ],
    };
    expect((await put('/api/bots/reader/skills/summarize', skill)).status).toBe(201);
    expect((await admin.listPrompts()).prompts.map((p) => p.name)).toContain('reader__summarize');
    const got = await admin.getPrompt({ name: 'reader__summarize', arguments: { text: 'x', tone: 'formal' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Summarize x in a formal tone.' });
    const own = await connectHttpClient(`${svc.service.url}/mcp/bots/reader`);
    try {
      expect((await own.listPrompts()).prompts.map((p) => p.name)).toContain('summarize');
      const values = await own.complete({
        ref: { type: 'ref/prompt', name: 'summarize' },
        argument: { name: 'tone', value: 'fr' },
      });
      expect(values.completion.values).toEqual(['friendly']);
    } finally {
      await own.close();
    }
  });

  it('runs a three-step workflow passing results on, and stops at a failed second step naming it', async () => {
    // The first step's text ("[FILE] notes.txt") is the second step's argument.
    const workflow = (second: Record<string, unknown>) => ({
      steps: [
        { id: 'list', tool: 'fs__list_directory', arguments: { path: dir } },
        second,
        { id: 'info', tool: 'fs__get_file_info', arguments: { path: join(dir, 'notes.txt') } },
      ],
    });
    const echo = { id: 'say', tool: 'everything__echo', arguments: { message: 'saw {{steps.list.text}}' } };
    const read = { id: 'read', tool: 'fs__read_text_file', arguments: { path: join(dir, 'missing.txt') } };
    expect((await put('/api/bots/reader/workflows/good', workflow(echo))).status).toBe(201);
    expect((await put('/api/bots/reader/workflows/bad', workflow(read))).status).toBe(201);
    const good = await admin.callTool({ name: 'trigger_workflow', arguments: { bot: 'reader', name: 'good' } });
    const run = good.structuredContent as { status: string; error: string; steps: { result: { content: Text[] } }[] };
    expect(run.error).toBeNull();
    expect(run.status).toBe('succeeded');
    expect(run.steps[1]?.result.content[0]?.text).toBe('Echo: saw [FILE] notes.txt');
    const bad = await admin.callTool({ name: 'trigger_workflow', arguments: { bot: 'reader', name: 'bad' } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ status: 'failed', failedStep: 'read' });
    expect((bad.structuredContent as { steps: { status: string }[] }).steps.map((s) => s.status)).toEqual([
      'succeeded',
      'failed',
      'skipped',
    ]);
  });

  it('create_bot adds a bot list_bots shows and whose chat tool appears after list_changed; delete_bot removes it', async () => {
    let changed = 0;
    admin.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    const made = await admin.callTool({ name: 'create_bot', arguments: { slug: 'helper', name: 'Helper' } });
    expect(made.isError).toBeFalsy();
    await waitFor(() => changed > 0, { what: 'tools/list_changed' });
    expect((await admin.listTools()).tools.map((t) => t.name)).toContain('chat__helper');
    const listed = await admin.callTool({ name: 'list_bots', arguments: {} });
    expect((listed.structuredContent as { bots: { slug: string }[] }).bots.map((b) => b.slug)).toContain('helper');
    await admin.callTool({ name: 'delete_bot', arguments: { slug: 'helper' } });
    await waitFor(() => changed > 1, { what: 'a second tools/list_changed' });
    expect((await admin.listTools()).tools.map((t) => t.name)).not.toContain('chat__helper');
  });

  it('a bot token sees its own bot tools and can neither create nor delete bots', async () => {
    const token = await post<{ token: string }>('/api/tokens', { name: 'reader', bot: 'reader' });
    const own = await connectHttpClient(`${svc.service.url}/mcp`, {}, token.body.token);
    try {
      const names = (await own.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['chat__reader', 'get_bot', 'fs__list_directory']));
      expect(names).not.toContain('create_bot');
      expect(names).not.toContain('fs__write_file');
      await expect(own.callTool({ name: 'create_bot', arguments: { slug: 'x', name: 'x' } })).rejects.toThrow(
        /create_bot is not available to bot "reader"/,
      );
      await expect(own.callTool({ name: 'delete_bot', arguments: { slug: 'reader' } })).rejects.toThrow(
        /delete_bot is not available to bot "reader"/,
      );
    } finally {
      await own.close();
    }
  });

  it('answers a "sampling": "bot" server with the bot provider, charging both budgets, until the bot budget is spent', async () => {
    const bot = await connectHttpClient(`${svc.service.url}/mcp/bots/reader`);
    try {
      fixture.reply({ text: 'sampled answer', usage: { prompt_tokens: 30, completion_tokens: 5 } });
      const result = await bot.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'hi', maxTokens: 50 },
      });
      expect(textOf(result)).toContain('sampled answer');
      expect(fixture.requests.at(-1)?.body.stream).toBeFalsy();
      const server = (await svc.server('everything')) as unknown as { samplingUsedTokens: number };
      expect(server.samplingUsedTokens).toBe(35);
      expect((await svc.api<{ usedTokens: number }>('/api/bots/reader/sampling')).body.usedTokens).toBe(35);

      const over = await bot.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'hi', maxTokens: 500 },
      });
      expect(over.isError).toBe(true);
      expect(textOf(over)).toMatch(/sampling budget of bot "reader" is spent/);
    } finally {
      await bot.close();
    }
    // No bot behind plain /mcp with the admin token: refused, with the reason.
    const refused = await admin.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'hi', maxTokens: 10 },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /answered by a bot \("sampling": "bot"\), but the session that caused it has no bot/,
    );
  });
});
