/**
 * The MCP duration histograms counted from ended spans (issue 21): a series per method, error
 * type and (CLIENT) server, with the labels `/metrics` renders; INTERNAL spans and spans
 * without `mcp.method.name` are not counted; past MAX_SERIES label sets, `_OTHER` takes the rest.
 */
import { SpanKind } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { MAX_SERIES } from '../../src/telemetry/index.js';
import { countOperationDurations } from '../../src/telemetry/operation-durations.js';

describe('countOperationDurations', () => {
  const setup = () => {
    const counted = countOperationDurations();
    const tracer = new BasicTracerProvider({ spanProcessors: [counted.processor] }).getTracer('t');
    const span = (kind: SpanKind, attributes: Record<string, string>) =>
      tracer.startSpan('x', { kind, attributes }).end();
    return { durations: counted.durations, span };
  };
  const series = (map: ReadonlyMap<string, { labels: Record<string, string>; count: number }>) =>
    [...map.values()].map((s) => [s.labels, s.count]);

  it('counts SERVER and CLIENT spans by method, error type and server', () => {
    const { durations, span } = setup();
    span(SpanKind.SERVER, { 'mcp.method.name': 'tools/call' });
    span(SpanKind.SERVER, { 'mcp.method.name': 'tools/call' });
    span(SpanKind.SERVER, { 'mcp.method.name': 'tools/call', 'error.type': 'tool_error' });
    span(SpanKind.CLIENT, { 'mcp.method.name': 'tools/call', 'boternity.server': 'gh' });
    span(SpanKind.INTERNAL, { 'mcp.method.name': 'tools/call' });
    span(SpanKind.SERVER, {});
    expect(series(durations.server)).toEqual([
      [{ method: 'tools/call' }, 2],
      [{ method: 'tools/call', error_type: 'tool_error' }, 1],
    ]);
    expect(series(durations.client)).toEqual([[{ method: 'tools/call', server: 'gh' }, 1]]);
  });

  it('puts every label set past MAX_SERIES under _OTHER', () => {
    const { durations, span } = setup();
    for (let i = 0; i < MAX_SERIES + 3; i++) span(SpanKind.SERVER, { 'mcp.method.name': `m${i}` });
    expect(durations.server.size).toBe(MAX_SERIES + 1);
    expect(series(durations.server).at(-1)).toEqual([{ method: '_OTHER' }, 3]);
  });
});
