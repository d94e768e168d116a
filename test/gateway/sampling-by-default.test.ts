/**
 * Issue 18 item 4: a server with no `sampling` setting that asks for sampling during a
 * bot's own call (a chat turn's tool call) is answered by that bot's provider, charged to
 * the server's and the bot's budgets, without the operator setting `"sampling": "bot"`.
 * An agent's call is still answered by the agent, and `"sampling": "client"` keeps the old
 * refusal for a bot's call. Real service, a real SDK server over stdio that calls
 * `sampling/createMessage` inside its tool, the local OpenAI-compatible fixture as provider.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
const quiet = { stderr: 'ignore' } as const;
type Text = { type: string; text: string };
const textOf = (result: unknown) => ((result as { content: Text[] }).content[0]?.text ?? '') as string;

describe('sampling during a bot call, with no "sampling" setting', { timeout: 60_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let admin: Client;

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    svc = await startTestService({
      mcpServers: {
        // No `sampling`: the default.
        alpha: {
          command: node,
          args: [GATEWAY_SERVER],
          env: { TOOL_PREFIX: 'a_' },
          samplingBudgetTokens: 1_000,
          ...quiet,
        },
        beta: { command: node, args: [GATEWAY_SERVER], env: { TOOL_PREFIX: 'b_' }, sampling: 'client', ...quiet },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
    const made = await svc.api('/api/bots', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        slug: 'helper',
        name: 'Helper',
        provider: { baseUrl: fixture.baseUrl, model: 'fixture-model' },
        samplingBudgetTokens: 500,
      }),
    });
    expect(made.status).toBe(201);
    admin = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await admin?.close();
    await svc?.stop();
    await fixture?.close();
  });

  it("answers it with the bot's provider, charged to the server's and the bot's budgets", async () => {
    const first = fixture.requests.length;
    fixture.reply(
      { toolCalls: [{ name: 'alpha__a_ask', arguments: { prompt: 'what is two and two?' } }] },
      { text: 'four', usage: { prompt_tokens: 12, completion_tokens: 3 } },
      { text: 'The server was told: four.' },
    );
    const result = await admin.callTool({ name: 'chat__helper', arguments: { message: 'ask the server' } });
    expect(textOf(result)).toBe('The server was told: four.');
    // The second request to the provider is the server's sampling, not the chat.
    const sampled = fixture.requests[first + 1]?.body;
    expect(JSON.stringify(sampled?.messages)).toContain('what is two and two?');
    expect(sampled?.tools).toBeUndefined();
    // The chat's third request carries the tool's answer, made of the sampled text.
    const toolMessage = fixture.requests[first + 2]?.body.messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('answer:four');
    const alpha = (await svc.server('alpha')) as unknown as { samplingUsedTokens: number };
    expect(alpha.samplingUsedTokens).toBe(15);
    expect((await svc.api<{ usedTokens: number }>('/api/bots/helper/sampling')).body.usedTokens).toBe(15);
    const rows = await waitFor(async () => {
      const found = (
        await svc.api<{ entries: { botId: string | null; success: boolean; tokenUsage: number | null }[] }>(
          '/api/audit?event=sampling_request&server=alpha',
        )
      ).body.entries;
      return found.length > 0 ? found : null;
    });
    expect(rows[0]).toMatchObject({ botId: 'helper', success: true, tokenUsage: 15 });
  });

  it('still asks the agent when an agent made the call', async () => {
    const asked: string[] = [];
    const agent = await connectHttpClient(`${svc.service.url}/mcp`, { capabilities: { sampling: {} } });
    try {
      agent.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        const content = request.params.messages[0]?.content;
        asked.push(content && 'text' in content ? String(content.text) : '');
        return { role: 'assistant', model: 'agent', content: { type: 'text', text: 'from the agent' } };
      });
      const before = fixture.requests.length;
      const result = await agent.callTool({ name: 'alpha__a_ask', arguments: { prompt: 'agent question' } });
      expect(textOf(result)).toBe('answer:from the agent');
      expect(asked).toEqual(['agent question']);
      expect(fixture.requests.length).toBe(before);
    } finally {
      await agent.close();
    }
  });

  it('keeps "sampling": "client" as it was: a bot call causing sampling is refused, the provider not asked', async () => {
    const first = fixture.requests.length;
    fixture.reply(
      { toolCalls: [{ name: 'beta__b_ask', arguments: { prompt: 'refused question' } }] },
      { text: 'It could not ask.' },
    );
    const result = await admin.callTool({ name: 'chat__helper', arguments: { message: 'ask beta' } });
    expect(textOf(result)).toBe('It could not ask.');
    expect(fixture.requests.length).toBe(first + 2);
    const toolMessage = fixture.requests[first + 1]?.body.messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toMatch(/sampling/i);
    expect(JSON.stringify(fixture.requests.slice(first).map((r) => r.body.messages))).not.toContain(
      '"content":"refused question"',
    );
  });
});
