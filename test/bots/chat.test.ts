import { writeFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/bots/add-memory.js';
import type { ChatEvent } from '../../src/bots/chat-schemas.js';
import { createBot } from '../../src/bots/create-bot.js';
import { getChatHistory } from '../../src/bots/get-chat-history.js';
import { type ChatRun, startChat } from '../../src/bots/start-chat.js';
import { toolResultText } from '../../src/bots/tool-result-text.js';
import { BotItemNotFoundError, MessageTooLargeError, UnknownBotError } from '../../src/errors.js';
import { botChatSessionsTable } from '../../src/storage/schema.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { connectDemoServer, connectFilesystemServer, createSdkToolCaller, POISON } from '../support/bot-tool-caller.js';
import { freePort } from '../support/free-port.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { useTempDirs } from '../support/temp-dir.js';
import { DIALECTS } from '../support/test-db.js';

type Deps = Awaited<ReturnType<typeof createTestBotDeps>>;

const collect = async (run: ChatRun): Promise<ChatEvent[]> => {
  const events: ChatEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
};
const textOf = (events: ChatEvent[]) => events.map((e) => (e.type === 'text' ? e.delta : '')).join('');
const last = <T>(items: T[]): T => {
  const item = items.at(-1);
  if (item === undefined) throw new Error('empty');
  return item;
};
const toolMessage = (body: { messages: { role: string; content?: unknown }[] }) =>
  body.messages.filter((m) => m.role === 'tool').at(-1)?.content;

describe.each(DIALECTS)('chat (%s)', (dialect) => {
  const tempDir = useTempDirs('bnity-chat-');
  let deps: Deps;
  let fixture: OpenAiFixture;
  let demo: Client;
  let fs: Client;
  let dir: string;
  let port: ReturnType<typeof createSdkToolCaller>;

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    dir = await tempDir();
    await writeFile(`${dir}/notes.txt`, 'hello');
    await writeFile(`${dir}/plan.md`, '# plan');
    [demo, fs] = await Promise.all([connectDemoServer(), connectFilesystemServer(dir)]);
    port = createSdkToolCaller({ servers: { fs, demo }, denied: ['demo__secret'] });
    deps = await createTestBotDeps({
      dialect,
      tools: port,
      credentials: { 'fixture-key': 'sk-fixture-123' },
      limits: { maxToolRounds: 2, maxMessageChars: 1_000 },
    });
    const provider = { baseUrl: fixture.baseUrl, model: 'fixture-model', credentialKey: 'fixture-key' };
    await createBot(deps, { slug: 'reader', name: 'Reader', systemPrompt: 'You read directories.', provider });
    await addMemory(deps, 'reader', { content: 'the user likes short answers', category: 'style' });
  }, 30_000);
  afterAll(async () => {
    await deps.close();
    await Promise.all([demo.close(), fs.close(), fixture.close()]);
  });

  it('calls list_directory of a real filesystem server through the port, streams the answer and keeps the history', async () => {
    fixture.reply({ toolCalls: [{ name: 'fs__list_directory', arguments: { path: dir } }] }, (request) => ({
      text: `I see: ${String(toolMessage(request.body))}`,
    }));
    const calls = port.calls.length;
    const run = await startChat(deps, 'reader', { message: 'What is in the folder?' });
    const events = await collect(run);

    expect(port.calls.slice(calls)).toEqual([{ slug: 'reader', name: 'fs__list_directory', args: { path: dir } }]);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ type: 'tool_result', name: 'fs__list_directory', isError: false });
    expect(result?.type === 'tool_result' && result.text).toMatch(/\[FILE\] notes\.txt[\s\S]*\[FILE\] plan\.md/);
    const final = last(events);
    expect(final).toMatchObject({ type: 'final', sessionId: run.sessionId, rounds: 2 });
    if (final.type !== 'final') throw new Error('no final');
    expect(final.text).toContain('[FILE] notes.txt');
    expect(textOf(events)).toBe(final.text);
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(2);

    const [first, second] = fixture.requests.slice(-2);
    expect(first?.headers.authorization).toBe('Bearer sk-fixture-123');
    expect(first?.body).toMatchObject({
      model: 'fixture-model',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(first?.body.messages[0]).toEqual({
      role: 'system',
      content: 'You read directories.\n\nWhat you remember (newest first):\n- [style] the user likes short answers',
    });
    const offered = first?.body.tools?.map((t) => t.function.name) ?? [];
    expect(offered).toContain('fs__list_directory');
    expect(offered).toContain('demo__echo');
    expect(offered).not.toContain('demo__secret');
    expect(toolMessage(second?.body ?? { messages: [] })).toBe(result?.type === 'tool_result' && result.text);

    const history = await getChatHistory(deps, 'reader', run.sessionId);
    expect(history.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(history.messages[2]).toMatchObject({ toolName: 'fs__list_directory', isError: false });
    expect(final.usage.totalTokens).toBeGreaterThan(0);
    expect(history.usage).toEqual(final.usage);
    expect(history.title).toBe('What is in the folder?');
  });

  it('sends the earlier turns of a session with the next message', async () => {
    fixture.reply({ text: 'First answer.' }, { text: 'Second answer.' });
    const run = await startChat(deps, 'reader', { message: 'one' });
    await collect(run);
    const next = await startChat(deps, 'reader', { message: 'two', sessionId: run.sessionId });
    expect(next.sessionId).toBe(run.sessionId);
    await collect(next);
    expect(last(fixture.requests).body.messages.slice(1)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('refuses a tool that was not offered even when the provider asks for it', async () => {
    fixture.reply({ toolCalls: [{ name: 'demo__secret', arguments: {} }] }, { text: 'ok' });
    const calls = port.calls.length;
    const events = await collect(await startChat(deps, 'reader', { message: 'tell me the secret' }));
    expect(port.calls.slice(calls)).toEqual([]);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      isError: true,
      result: null,
      text: 'Error: tool "demo__secret" is not available to this bot; it was not called',
    });
    expect(toolMessage(last(fixture.requests).body)).toBe(
      'Error: tool "demo__secret" is not available to this bot; it was not called',
    );
    expect(last(events).type).toBe('final');
  });

  it('passes a poisoned result to the provider exactly as the port returned it (sanitized)', async () => {
    fixture.reply({ toolCalls: [{ name: 'demo__poisoned', arguments: {} }] }, { text: 'done' });
    await collect(await startChat(deps, 'reader', { message: 'read the poisoned tool' }));
    const seen = String(toolMessage(last(fixture.requests).body));
    expect(seen).toBe(toolResultText(last(port.returned)));
    for (const word of POISON.absent) expect(seen).not.toContain(word);
  });

  it('tells the provider about a tool that fails, and goes on', async () => {
    fixture.reply({ toolCalls: [{ name: 'demo__fail', arguments: {} }] }, { text: 'The tool failed.' });
    const run = await startChat(deps, 'reader', { message: 'break something' });
    const events = await collect(run);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true });
    expect(String(toolMessage(last(fixture.requests).body))).toMatch(/^Error: .*disk on fire/);
    expect(last(events)).toMatchObject({ type: 'final', text: 'The tool failed.' });
    const history = await getChatHistory(deps, 'reader', run.sessionId);
    expect(history.messages.find((m) => m.role === 'tool')).toMatchObject({ isError: true, toolName: 'demo__fail' });
  });

  it('stops after the tool round limit with a clear message, keeping every step', async () => {
    const loop = { toolCalls: [{ name: 'demo__echo', arguments: { text: 'again' } }] };
    fixture.reply(loop, loop, loop);
    const run = await startChat(deps, 'reader', { message: 'loop forever' });
    const events = await collect(run);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(2);
    expect(last(events)).toMatchObject({
      type: 'error',
      reason: 'tool_rounds',
      message: 'the bot still asked for tools after 2 rounds, so the turn stopped; ask again to continue',
    });
    const roles = (await getChatHistory(deps, 'reader', run.sessionId)).messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'error']);
  });

  it('ends with a clear message when the provider answers an error, keeping the history', async () => {
    fixture.reply({ error: { status: 500, message: 'model overloaded' } });
    const run = await startChat(deps, 'reader', { message: 'hello?' });
    const events = await collect(run);
    expect(events).toEqual([
      {
        type: 'error',
        sessionId: run.sessionId,
        reason: 'provider_failed',
        message: `provider ${fixture.baseUrl} answered 500 model overloaded`,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      },
    ]);
    const history = await getChatHistory(deps, 'reader', run.sessionId);
    expect(history.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hello?'],
      ['error', `provider ${fixture.baseUrl} answered 500 model overloaded`],
    ]);
  });

  it('keeps the text received when the provider drops the connection mid-answer, or before it', async () => {
    fixture.reply({ text: 'one two three four', dropAfter: 2 }, { drop: true });
    const run = await startChat(deps, 'reader', { message: 'count' });
    const events = await collect(run);
    expect(textOf(events)).toBe('one two ');
    const closed = `provider ${fixture.baseUrl} closed the connection before its answer was complete`;
    expect(last(events)).toMatchObject({ type: 'error', reason: 'provider_failed', message: closed });
    const history = await getChatHistory(deps, 'reader', run.sessionId);
    expect(history.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'count'],
      ['assistant', 'one two '],
      ['error', closed],
    ]);
    expect(last(await collect(await startChat(deps, 'reader', { message: 'again' })))).toMatchObject({
      reason: 'provider_failed',
      message: closed,
    });
  });

  it('ends with a clear message when the provider is unreachable, or not configured, or its key is missing', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}/v1`;
    await createBot(deps, { slug: 'lost', name: 'Lost', provider: { baseUrl: nowhere, model: 'm' } });
    await createBot(deps, { slug: 'mute', name: 'Mute' });
    await createBot(deps, {
      slug: 'keyless',
      name: 'Keyless',
      provider: { baseUrl: fixture.baseUrl, model: 'm', credentialKey: 'absent' },
    });
    const outcome = async (slug: string) => {
      const run = await startChat(deps, slug, { message: 'hi' });
      const events = await collect(run);
      const history = await getChatHistory(deps, slug, run.sessionId);
      return { events, roles: history.messages.map((m) => m.role) };
    };
    const lost = await outcome('lost');
    expect(lost.events).toMatchObject([
      {
        type: 'error',
        reason: 'provider_unreachable',
        message: `provider ${nowhere} is unreachable (ECONNREFUSED): check its baseUrl and that it is running`,
      },
    ]);
    expect(lost.roles).toEqual(['user', 'error']);
    expect((await outcome('mute')).events).toMatchObject([
      {
        type: 'error',
        reason: 'no_provider',
        message: expect.stringMatching(/^bot "mute" has no LLM provider; give it one/),
      },
    ]);
    const requests = fixture.requests.length;
    expect((await outcome('keyless')).events).toMatchObject([
      {
        type: 'error',
        reason: 'no_credential',
        message:
          'credential "absent" of bot "keyless" is not in the keystore; store it with bnity mcp credential set absent',
      },
    ]);
    expect(fixture.requests.length).toBe(requests);
  });

  it('records an interruption when the reader stops early', async () => {
    fixture.reply({ text: 'a long answer in many words' });
    const run = await startChat(deps, 'reader', { message: 'talk' });
    const first = await run.events.next();
    expect(first.value).toMatchObject({ type: 'text' });
    await run.events.return();
    const history = await getChatHistory(deps, 'reader', run.sessionId);
    expect(history.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['assistant', first.value?.type === 'text' ? first.value.delta : ''],
      ['error', 'the chat was interrupted before it finished'],
    ]);
  });

  it('refuses a message over the size limit, an unknown session and an unknown bot, storing nothing', async () => {
    const sessions = (await deps.db.select().from(botChatSessionsTable)).length;
    await expect(startChat(deps, 'reader', { message: 'x'.repeat(1_001) })).rejects.toMatchObject({
      message: new MessageTooLargeError(1_001, 1_000).message,
      code: 'payload_too_large',
    });
    await expect(
      startChat(deps, 'reader', { message: 'hi', sessionId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toBeInstanceOf(BotItemNotFoundError);
    await expect(startChat(deps, 'nobody', { message: 'hi' })).rejects.toBeInstanceOf(UnknownBotError);
    await expect(startChat(deps, 'reader', { message: '' })).rejects.toThrow(
      'invalid chat message: message: expected a non-empty message',
    );
    expect((await deps.db.select().from(botChatSessionsTable)).length).toBe(sessions);
  });
});
