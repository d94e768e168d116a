/**
 * The SDK as `bnity serve` starts it (issue 21), with an in-memory exporter in place of
 * OTLP: spans exported in batches, log lines written while a request is served carry its
 * `trace_id`/`span_id` (passed explicitly: no context manager is set, so two calls at once
 * each name their own), and the MCP duration histograms count each SERVER and CLIENT span
 * (rendered in `/metrics`' format).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { addOperationDurations } from '../../src/metrics/add-trace-metrics.js';
import { tracingSettings } from '../../src/telemetry/index.js';
import { startTracing, type Tracing } from '../../src/telemetry/start-tracing.js';
import { captureLog } from '../support/capture-log.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', {}, async () => ({ content: [{ type: 'text', text: 'echo' }] }));
  return server;
}

describe('startTracing', () => {
  const exporter = new InMemorySpanExporter();
  const captured = captureLog('debug');
  let tracing: Tracing;
  let gw: GatewayHarness;
  beforeAll(async () => {
    const settings = tracingSettings(
      parseConfig({ telemetry: { enabled: true, scheduledDelayMs: 10 } }, null).telemetry,
      {},
    );
    if (!settings) throw new Error('tracing should be on');
    tracing = startTracing(settings, { log: captured.log, exporter });
    gw = await startGateway({ servers: { e: { make: echoServer } }, tracer: tracing.tracer, log: captured.log });
  });
  afterAll(async () => {
    await gw?.stop();
    await tracing?.shutdown();
  });

  it('exports the spans of a call in a batch, and its log lines carry the trace', async () => {
    const { client } = await gw.agent();
    await client.callTool({ name: 'e__echo', arguments: {} });
    // SERVER and CLIENT (the sanitize step only when it took time or changed the result).
    await expect.poll(() => exporter.getFinishedSpans().length).toBeGreaterThanOrEqual(2);
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER);
    const line = captured.lines.find((l) => l.msg === 'tool call');
    expect(line).toMatchObject({ trace_id: server?.spanContext().traceId, span_id: server?.spanContext().spanId });
    // Outside a request, a line carries no trace.
    captured.log.info('outside');
    expect(captured.lines.at(-1)).not.toHaveProperty('trace_id');
    expect(tracing.dropped()).toBe(0);
  });

  it('counts mcp.server.operation.duration and mcp.client.operation.duration, rendered as Prometheus histograms', async () => {
    expect([...(tracing.durations?.server.values() ?? [])].map((s) => [s.labels, s.count])).toContainEqual([
      { method: 'tools/call' },
      1,
    ]);
    expect([...(tracing.durations?.client.values() ?? [])].map((s) => [s.labels, s.count])).toContainEqual([
      { method: 'tools/call', server: 'e' },
      1,
    ]);
    const registry = new Registry();
    if (tracing.durations) addOperationDurations(registry, tracing.durations);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE mcp_server_operation_duration_seconds histogram');
    expect(text).toContain('mcp_server_operation_duration_seconds_bucket{method="tools/call",le="+Inf"} 1');
    expect(text).toContain('mcp_client_operation_duration_seconds_count{method="tools/call",server="e"} 1');
  });

  it('names each call its own trace when calls overlap, with no context manager set', async () => {
    // Nothing process-wide: the API's active context is the root one, whatever runs.
    expect(trace.getSpan(context.active())).toBeUndefined();
    const agents = await Promise.all([gw.agent(), gw.agent(), gw.agent()]);
    const before = captured.lines.length;
    await Promise.all(agents.map(({ client }) => client.callTool({ name: 'e__echo', arguments: {} })));
    const lines = captured.lines.slice(before).filter((l) => l.msg === 'tool call');
    expect(lines).toHaveLength(3);
    const calls = () =>
      exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER && s.name === 'tools/call e__echo');
    // The first test's call, and these three.
    await expect.poll(() => calls().length).toBe(4);
    const servers = calls();
    for (const line of lines) {
      const own = servers.find((s) => s.attributes['mcp.session.id'] === line.session);
      expect(own, `the span of session ${String(line.session)}`).toBeDefined();
      expect(line).toMatchObject({ trace_id: own?.spanContext().traceId, span_id: own?.spanContext().spanId });
    }
    expect(new Set(lines.map((l) => l.trace_id)).size).toBe(3);
  });
});
