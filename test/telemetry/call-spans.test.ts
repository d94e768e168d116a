/**
 * The spans of agent requests in-process (issue 21): the tree of a `tools/call` (SERVER →
 * CLIENT, and the sanitize step when it changed the result) with the MCP semantic conventions' names and attributes, the trace
 * context the upstream receives in `params._meta`, an agent's trace continued, `isError`
 * and a refused call, and tracing off leaving the request as the agent sent it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema, CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseTraceparent, STEP_SPAN_MS } from '../../src/telemetry/index.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';

/** What the upstream was sent in `_meta`, by tool call, in order. */
type Received = Record<string, unknown> | undefined;

/** An upstream with `echo` (records the `_meta` it got) and `broken` (answers `isError`). */
function recordingServer(received: Received[]): McpServer {
  const server = new McpServer({ name: 'recording', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
    received.push(extra._meta as Received);
    return { content: [{ type: 'text', text: `echo:${text}` }] };
  });
  server.registerTool('broken', {}, async () => ({ isError: true, content: [{ type: 'text', text: 'it broke' }] }));
  server.registerTool('ask', {}, async (extra) => {
    const answer = await extra.sendRequest(
      { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
      CreateMessageResultSchema,
    );
    return { content: [{ type: 'text', text: JSON.stringify(answer.content) }] };
  });
  return server;
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const AGENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const AGENT_SPAN = '00f067aa0ba902b7';

describe('call spans, tracing on', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const received: Received[] = [];
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway({
      servers: { rec: { make: () => recordingServer(received) } },
      tracer: provider.getTracer('test'),
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await provider.shutdown();
  });
  beforeEach(() => {
    exporter.reset();
    received.length = 0;
  });

  it('makes SERVER → CLIENT for a tools/call, and the upstream gets the CLIENT span in _meta', async () => {
    const { client, session } = await gw.agent({ kind: 'all' }, {}, 'token-7');
    const result = await client.callTool({ name: 'rec__echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:hi' }]);
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER);
    const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT);
    const sanitize = spans.find((s) => s.name === 'boternity.sanitize');
    expect(server?.name).toBe('tools/call rec__echo');
    expect(server?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'rec__echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.session.id': session.id,
      'boternity.client': 'token-7',
      'boternity.server': 'rec',
      'network.transport': 'pipe',
    });
    expect(server?.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    expect(server?.attributes['error.type']).toBeUndefined();
    // A new trace: the agent sent no context.
    expect(parentOf(server as ReadableSpan)).toBeUndefined();
    expect(clientSpan?.name).toBe('tools/call echo');
    expect(clientSpan?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'boternity.server': 'rec',
    });
    expect(parentOf(clientSpan as ReadableSpan)).toBe(server?.spanContext().spanId);
    expect(clientSpan?.spanContext().traceId).toBe(server?.spanContext().traceId);
    // The sanitizer changed nothing: no span unless the step took time (a cold first call may).
    if (sanitize) expect(sanitize.duration[0] * 1e3 + sanitize.duration[1] / 1e6).toBeGreaterThanOrEqual(STEP_SPAN_MS);
    // The upstream's parent is our CLIENT span, in the same trace.
    const sent = parseTraceparent(received[0]?.traceparent);
    expect(sent).toMatchObject({ traceId: server?.spanContext().traceId, spanId: clientSpan?.spanContext().spanId });
    // The audit row names the trace.
    expect(gw.audit.at(-1)).toMatchObject({ eventType: 'tool_call', traceId: server?.spanContext().traceId });
  });

  it('makes the sanitize step a child span when it changed the result', async () => {
    const { client } = await gw.agent();
    const result = await client.callTool({ name: 'rec__echo', arguments: { text: 'hi<!-- hidden -->' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:hi' }]);
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER) as ReadableSpan;
    const sanitize = spans.find((s) => s.name === 'boternity.sanitize') as ReadableSpan;
    expect(parentOf(sanitize)).toBe(server.spanContext().spanId);
    expect(sanitize.spanContext().traceId).toBe(server.spanContext().traceId);
    // Timed as the step ran (made once it ended, with its own start).
    expect(sanitize.duration[0] * 1e9 + sanitize.duration[1]).toBeGreaterThan(0);
  });

  it("continues the agent's trace from params._meta.traceparent, and passes its baggage on", async () => {
    const { client } = await gw.agent();
    await client.callTool({
      name: 'rec__echo',
      arguments: { text: 'traced' },
      _meta: { traceparent: `00-${AGENT_TRACE}-${AGENT_SPAN}-01`, baggage: 'tenant=acme' },
    });
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER);
    expect(server?.spanContext().traceId).toBe(AGENT_TRACE);
    expect(parentOf(server as ReadableSpan)).toBe(AGENT_SPAN);
    const clientSpan = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.CLIENT);
    // The agent's traceparent is replaced by ours, never forwarded as it was.
    expect(received[0]?.traceparent).toBe(`00-${AGENT_TRACE}-${clientSpan?.spanContext().spanId}-01`);
    expect(received[0]?.baggage).toBe('tenant=acme');
  });

  it('marks an isError result as error.type tool_error on both spans', async () => {
    const { client } = await gw.agent();
    const result = await client.callTool({ name: 'rec__broken', arguments: {} });
    expect(result.isError).toBe(true);
    const spans = exporter.getFinishedSpans().filter((s) => s.kind !== SpanKind.INTERNAL);
    expect(spans.map((s) => [s.name, s.attributes['error.type'], s.status.code])).toEqual([
      ['tools/call broken', 'tool_error', SpanStatusCode.ERROR],
      ['tools/call rec__broken', 'tool_error', SpanStatusCode.ERROR],
    ]);
  });

  it('gives a refused call (a tool not in the view) its JSON-RPC code as error.type, and no CLIENT span', async () => {
    const { client } = await gw.agent();
    await expect(client.callTool({ name: 'rec__nope', arguments: {} })).rejects.toThrow(/rec__nope/);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['tools/call rec__nope']);
    expect(spans[0]?.attributes['error.type']).toBe('-32602');
    expect(spans[0]?.attributes['rpc.response.status_code']).toBe('-32602');
    expect(spans[0]?.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/rec__nope/) });
  });

  it("carries the call's trace into a sampling request relayed to the agent", async () => {
    const asked: Received[] = [];
    const { client } = await gw.agent({ kind: 'all' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(request.params._meta as Received);
      return { role: 'assistant', model: 'm', content: { type: 'text', text: 'ok' } };
    });
    await client.callTool({ name: 'rec__ask', arguments: {} });
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER);
    expect(parseTraceparent(asked[0]?.traceparent)).toMatchObject({
      traceId: server?.spanContext().traceId,
      spanId: server?.spanContext().spanId,
    });
  });

  it('names a list request by its method alone', async () => {
    const { client } = await gw.agent();
    await client.listTools();
    expect(exporter.getFinishedSpans().map((s) => [s.name, s.kind])).toEqual([['tools/list', SpanKind.SERVER]]);
  });
});

describe('call spans, tracing off', () => {
  const received: Received[] = [];
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway({ servers: { rec: { make: () => recordingServer(received) } } });
  });
  afterAll(() => gw?.stop());

  it("relays the agent's _meta as it was sent: nothing added, nothing replaced", async () => {
    const { client } = await gw.agent();
    const traceparent = `00-${AGENT_TRACE}-${AGENT_SPAN}-01`;
    await client.callTool({ name: 'rec__echo', arguments: { text: 'x' }, _meta: { traceparent } });
    await client.callTool({ name: 'rec__echo', arguments: { text: 'y' } });
    expect(received[0]?.traceparent).toBe(traceparent);
    expect(received[1]?.traceparent).toBeUndefined();
    expect(gw.audit.at(-1)?.traceId).toBeNull();
  });
});
