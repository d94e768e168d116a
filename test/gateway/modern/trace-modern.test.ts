/**
 * The SERVER span of a 2026-07-28 request (issue 21) on the real service: named and
 * attributed as a 2025-11-25 one, with `mcp.protocol.version` 2026-07-28 and no
 * `mcp.session.id`; its parent is the agent's `_meta.traceparent`, else the HTTP
 * `traceparent` header; the upstream request is a CLIENT child whose context the upstream
 * receives in `_meta`; a refused request's span says so; lists are spans too.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTraceparent } from '../../../src/telemetry/index.js';
import { fixtureServer } from '../../support/fixtures.js';
import { memoryTracing } from '../../support/memory-tracing.js';
import { envelope, postModern } from '../../support/modern-client.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const TRACE_SERVER = fixtureServer('trace-server.mjs');
const AGENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const AGENT_SPAN = '00f067aa0ba902b7';
const HEADER_TRACE = '0af7651916cd43dd8448eb211c80319c';

describe('2026-07-28 requests, tracing on', () => {
  const memory = memoryTracing();
  let svc: TestService;
  const post = (id: number, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
    postModern(
      `${svc.service.url}/mcp`,
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...envelope(), ...(params._meta as object) } } },
      {
        headers: {
          'mcp-method': method,
          ...(method === 'tools/call' ? { 'mcp-name': String(params.name) } : {}),
          ...headers,
        },
      },
    );
  /** What the trace server says reached it (the `_meta` of its call). */
  const seen = async (answer: Response) => {
    const body = (await answer.json()) as { result: { content: { text: string }[] } };
    return JSON.parse(body.result.content[0]?.text ?? 'null') as { meta: Record<string, unknown> | null };
  };
  const spans = () => memory.spans();
  const server = (name: string) =>
    waitFor(() => spans().find((s) => s.kind === SpanKind.SERVER && s.name === name) ?? null, { what: name });

  beforeAll(async () => {
    svc = await startTestService(
      { mcpServers: { st: { command: process.execPath, args: [TRACE_SERVER] } } },
      { tracing: memory.tracing },
    );
    await waitFor(async () => (await svc.server('st'))?.state === 'connected' || null, { what: 'st connected' });
  }, 30_000);
  afterAll(() => svc?.stop());
  beforeEach(() => memory.exporter.reset());

  it("makes a SERVER span continuing the agent's _meta trace, with a CLIENT child the upstream gets in _meta", async () => {
    const answer = await post(11, 'tools/call', {
      name: 'st__trace',
      arguments: {},
      _meta: { traceparent: `00-${AGENT_TRACE}-${AGENT_SPAN}-01` },
    });
    expect(answer.status).toBe(200);
    const upstreamGot = parseTraceparent((await seen(answer)).meta?.traceparent);
    const span = await server('tools/call st__trace');
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': '11',
      'gen_ai.tool.name': 'st__trace',
      'gen_ai.operation.name': 'execute_tool',
      'boternity.server': 'st',
      'boternity.client': expect.any(String),
      'network.protocol.name': 'http',
    });
    expect(span.attributes).not.toHaveProperty('mcp.session.id');
    expect(span.spanContext().traceId).toBe(AGENT_TRACE);
    expect(span.parentSpanContext?.spanId).toBe(AGENT_SPAN);
    const client = spans().find((s) => s.kind === SpanKind.CLIENT) as ReadableSpan;
    expect(client.name).toBe('tools/call trace');
    expect(client.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(upstreamGot).toMatchObject({ traceId: AGENT_TRACE, spanId: client.spanContext().spanId });
  });

  it('takes the parent from the HTTP traceparent header when _meta has none', async () => {
    await post(
      12,
      'tools/call',
      { name: 'st__trace', arguments: {} },
      { traceparent: `00-${HEADER_TRACE}-${AGENT_SPAN}-01` },
    );
    const span = await server('tools/call st__trace');
    expect(span.spanContext().traceId).toBe(HEADER_TRACE);
    expect(span.parentSpanContext?.spanId).toBe(AGENT_SPAN);
  });

  it('starts a new trace for an agent that sends no context, and traces lists', async () => {
    const answer = await post(13, 'tools/list', {});
    expect(answer.status).toBe(200);
    const span = await server('tools/list');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'mcp.protocol.version': '2026-07-28' });
  });

  it('ends the span of a refused request with its JSON-RPC code', async () => {
    const answer = await post(14, 'prompts/get', { name: 5 });
    expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const span = await server('prompts/get');
    expect(span.attributes['error.type']).toBe('-32602');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});
