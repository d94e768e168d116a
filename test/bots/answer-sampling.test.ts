import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSamplingAnswerer } from '../../src/bots/answer-sampling.js';
import { createBot } from '../../src/bots/create-bot.js';
import type { AnswerSampling } from '../../src/bots/ports.js';
import { updateBot } from '../../src/bots/update-bot.js';
import { BotBudgetExceededError, ProviderError, UnknownBotError } from '../../src/errors.js';
import { botSamplingUsed } from '../../src/storage/bot-sampling-usage-repo.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';

type Deps = Awaited<ReturnType<typeof createTestBotDeps>>;
type Params = CreateMessageRequest['params'];

const ask = (text: string, maxTokens = 50): Params => ({
  messages: [{ role: 'user', content: { type: 'text', text } }],
  systemPrompt: 'Be brief.',
  maxTokens,
});

describe('sampling answered by a bot', () => {
  let deps: Deps;
  let fixture: OpenAiFixture;
  let answer: AnswerSampling;
  let botId: string;
  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    deps = await createTestBotDeps({ credentials: { key: 'sk-sampling' } });
    answer = createSamplingAnswerer(deps);
    const provider = { baseUrl: fixture.baseUrl, model: 'fixture-model', credentialKey: 'key' };
    botId = (await createBot(deps, { slug: 'sampler', name: 'Sampler', provider, samplingBudgetTokens: 500 })).id;
  });
  afterAll(async () => {
    await deps.close();
    await fixture.close();
  });

  it('answers through the provider with its real token counts, charged to the bot', async () => {
    fixture.reply({ text: 'Brief.', usage: { prompt_tokens: 40, completion_tokens: 7 } });
    const { result, usage } = await answer({ slug: 'sampler', server: 'notes', params: ask('Summarize this') });
    expect(CreateMessageResultSchema.parse(result)).toEqual({
      role: 'assistant',
      model: 'fixture-model',
      content: { type: 'text', text: 'Brief.' },
      stopReason: 'endTurn',
    });
    expect(usage).toEqual({ promptTokens: 40, completionTokens: 7, totalTokens: 47, estimated: false });
    expect(await botSamplingUsed(deps.db, botId)).toBe(47);
    const seen = fixture.requests.at(-1);
    expect(seen?.headers.authorization).toBe('Bearer sk-sampling');
    expect(seen?.body).toMatchObject({ model: 'fixture-model', max_tokens: 50 });
    expect(seen?.body.stream).toBeFalsy();
    expect(seen?.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Summarize this' }] },
    ]);
  });

  it('refuses a request the budget cannot pay for, without asking the provider', async () => {
    const requests = fixture.requests.length;
    const used = await botSamplingUsed(deps.db, botId);
    const error = await answer({ slug: 'sampler', server: 'notes', params: ask('long', 1_000) }).catch((e) => e);
    expect(error).toBeInstanceOf(BotBudgetExceededError);
    expect(error.message).toMatch(
      new RegExp(
        `^sampling budget of bot "sampler" is spent \\(${used} of 500 tokens used, 0 reserved; this request may need \\d+\\)`,
      ),
    );
    expect(fixture.requests.length).toBe(requests);
    expect(await botSamplingUsed(deps.db, botId)).toBe(used);
  });

  it('estimates the cost when the provider reports no usage', async () => {
    fixture.reply({ text: 'No counts here.', usage: null });
    const before = await botSamplingUsed(deps.db, botId);
    const { usage } = await answer({ slug: 'sampler', server: null, params: ask('estimate me') });
    expect(usage.estimated).toBe(true);
    expect(usage.completionTokens).toBeGreaterThan(0);
    expect(await botSamplingUsed(deps.db, botId)).toBe(before + usage.totalTokens);
  });

  it('passes tools and tool results, and answers tool uses', async () => {
    fixture.reply({ toolCalls: [{ id: 'call_9', name: 'lookup', arguments: { q: 'tea' } }] });
    const params: Params = {
      maxTokens: 30,
      tools: [{ name: 'lookup', description: 'Look up', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'required' },
      messages: [
        { role: 'user', content: { type: 'text', text: 'find tea' } },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'cups' } }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '3 cups' }] }],
        },
      ],
    };
    const { result } = await answer({ slug: 'sampler', server: 'notes', params });
    expect(CreateMessageResultWithToolsSchema.parse(result)).toMatchObject({
      stopReason: 'toolUse',
      content: [{ type: 'tool_use', id: 'call_9', name: 'lookup', input: { q: 'tea' } }],
    });
    expect(fixture.requests.at(-1)?.body).toMatchObject({
      tool_choice: 'required',
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'find tea' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"cups"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '3 cups' },
      ],
    });
  });

  it('answers a real upstream sampling request over the SDK', async () => {
    fixture.reply({ text: 'A haiku.', usage: { prompt_tokens: 5, completion_tokens: 3 } });
    const upstream = new McpServer({ name: 'poet', version: '1.0.0' });
    upstream.registerTool('poem', { description: 'Asks for a poem' }, async () => {
      const sampled = await upstream.server.createMessage(ask('Write a haiku', 20));
      return {
        content: [{ type: 'text', text: `got: ${sampled.content.type === 'text' ? sampled.content.text : ''}` }],
      };
    });
    const client = new Client({ name: 'gateway-side', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(
      CreateMessageRequestSchema,
      async (request) => (await answer({ slug: 'sampler', server: 'poet', params: request.params })).result,
    );
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([upstream.connect(a), client.connect(b)]);
    try {
      expect((await client.callTool({ name: 'poem' })).content).toEqual([{ type: 'text', text: 'got: A haiku.' }]);
    } finally {
      await client.close();
    }
  });

  it('fails clearly for an unknown bot, a bot without provider and a provider error', async () => {
    await expect(answer({ slug: 'ghost', server: null, params: ask('x') })).rejects.toBeInstanceOf(UnknownBotError);
    await createBot(deps, { slug: 'silent', name: 'Silent' });
    await expect(answer({ slug: 'silent', server: null, params: ask('x') })).rejects.toThrow(
      /^bot "silent" has no LLM provider/,
    );
    fixture.reply({ error: { status: 429, message: 'slow down' } });
    const error = await answer({ slug: 'sampler', server: null, params: ask('x') }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(`provider ${fixture.baseUrl} answered 429 slow down`);
    await updateBot(deps, 'sampler', { samplingBudgetTokens: null });
    fixture.reply({ text: 'unlimited' });
    expect((await answer({ slug: 'sampler', server: null, params: ask('x', 100_000) })).result.content).toEqual({
      type: 'text',
      text: 'unlimited',
    });
  });
});
