/**
 * The spans of a bot's chat turn (issue 21): `invoke_agent {bot}` with a `chat {model}`
 * CLIENT span per LLM call (gen_ai attributes, tokens, the provider's host) and an
 * `execute_tool {name}` span per tool round, parent of the gateway's CLIENT span to the
 * upstream, which receives it in `_meta`; against the repo's OpenAI-compatible test server.
 * A workflow run and its steps likewise.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatEvent } from '../../src/bots/chat-schemas.js';
import { createBot } from '../../src/bots/create-bot.js';
import { runWorkflow } from '../../src/bots/run-workflow.js';
import { saveWorkflow } from '../../src/bots/save-workflow.js';
import { startChat } from '../../src/bots/start-chat.js';
import { parseTraceparent } from '../../src/telemetry/index.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';
import { memoryTracing } from '../support/memory-tracing.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';

describe('chat spans', () => {
  const memory = memoryTracing();
  const received: (Record<string, unknown> | undefined)[] = [];
  let fixture: OpenAiFixture;
  let gw: GatewayHarness;
  let deps: Awaited<ReturnType<typeof createTestBotDeps>>;
  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    gw = await startGateway({
      servers: {
        rec: {
          make: () => {
            const server = new McpServer({ name: 'rec', version: '1.0.0' });
            server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
              received.push(extra._meta as Record<string, unknown> | undefined);
              return { content: [{ type: 'text', text: `echo:${text}` }] };
            });
            return server;
          },
        },
      },
      config: { bots: { reader: {} } },
      tracer: memory.tracing.tracer,
    });
    deps = await createTestBotDeps({ tools: gw.gateway.botToolCaller });
    deps.tracer = memory.tracing.tracer;
    const provider = { baseUrl: fixture.baseUrl, model: 'fixture-model' };
    await createBot(deps, { slug: 'reader', name: 'Reader', systemPrompt: 'You echo.', provider });
  }, 30_000);
  afterAll(async () => {
    await deps?.close();
    await gw?.stop();
    await fixture?.close();
  });

  it('makes a turn with a tool round a span tree: invoke_agent → chat, execute_tool → the CLIENT span', async () => {
    fixture.reply({ toolCalls: [{ name: 'rec__echo', arguments: { text: 'hi' } }] }, () => ({ text: 'done' }));
    const run = await startChat(deps, 'reader', { message: 'echo hi' });
    const events: ChatEvent[] = [];
    for await (const event of run.events) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'final', rounds: 2 });

    const spans = memory.spans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
    const [turn] = byName('invoke_agent reader');
    const llm = byName('chat fixture-model');
    const [tool] = byName('execute_tool rec__echo');
    const upstream = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'tools/call echo');
    expect(turn?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'reader',
      'gen_ai.conversation.id': run.sessionId,
    });
    expect(llm).toHaveLength(2);
    expect(llm[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'fixture-model',
      'server.address': '127.0.0.1',
      'boternity.chat.round': 1,
    });
    expect(typeof llm[0]?.attributes['gen_ai.usage.input_tokens']).toBe('number');
    for (const span of [...llm, tool]) expect(parentOf(span)).toBe(turn?.spanContext().spanId);
    expect(tool?.attributes).toMatchObject({
      'gen_ai.tool.name': 'rec__echo',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(parentOf(upstream)).toBe(tool?.spanContext().spanId);
    expect(upstream?.spanContext().traceId).toBe(turn?.spanContext().traceId);
    // The upstream continues the bot's trace.
    expect(parseTraceparent(received[0]?.traceparent)).toMatchObject({
      traceId: turn?.spanContext().traceId,
      spanId: upstream?.spanContext().spanId,
    });
    expect(turn?.status.code).not.toBe(2);
  });

  it('makes a workflow run a span with a child per step, each the parent of its tool call', async () => {
    memory.exporter.reset();
    await saveWorkflow(deps, 'reader', {
      name: 'twice',
      steps: [
        { id: 'one', tool: 'rec__echo', arguments: { text: 'a' } },
        { id: 'two', tool: 'rec__missing', arguments: {} },
      ],
    });
    const run = await runWorkflow(deps, 'reader', { name: 'twice' });
    expect(run).toMatchObject({ status: 'failed', failedStep: 'two' });
    const spans = memory.spans();
    const workflow = spans.find((s) => s.name === 'boternity.workflow twice');
    const steps = spans.filter((s) => s.name.startsWith('boternity.workflow.step '));
    expect(steps.map((s) => [s.name, s.parentSpanContext?.spanId, s.status.code])).toEqual([
      ['boternity.workflow.step one', workflow?.spanContext().spanId, 0],
      ['boternity.workflow.step two', workflow?.spanContext().spanId, 2],
    ]);
    expect(workflow?.attributes['boternity.workflow.failed_step']).toBe('two');
    const upstream = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'tools/call echo');
    expect(upstream?.parentSpanContext?.spanId).toBe(steps[0]?.spanContext().spanId);
  });
});
