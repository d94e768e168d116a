/**
 * The traces' metrics (issue 21): spans dropped because the export queue was full or the
 * collector did not take them, and the MCP semantic conventions' duration histograms
 * (`mcp.server.operation.duration`, `mcp.client.operation.duration`, as
 * `mcp_server_operation_duration_seconds` and `mcp_client_operation_duration_seconds`),
 * read from the tracing's own counts at scrape time.
 * @module
 */
import type { Registry } from 'prom-client';
import { DURATION_BUCKETS, type DurationSeries, type OperationDurations } from '../telemetry/index.js';

/** Register the dropped-spans counter on `registry`; `dropped` reads the total so far. */
export function addTraceMetrics(prom: typeof import('prom-client'), registry: Registry, dropped: () => number): void {
  new prom.Counter({
    name: 'boternity_trace_spans_dropped_total',
    help: 'Spans dropped: the export queue was full (telemetry.maxQueueSize) or the collector did not take them.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(dropped());
    },
  });
}

/** Register the two duration histograms on `registry`, read from `durations` at each scrape. */
export function addOperationDurations(registry: Registry, durations: OperationDurations): void {
  const histogram = (name: string, help: string, series: ReadonlyMap<string, DurationSeries>) => ({
    name,
    help,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    get: async () => ({
      name,
      help,
      type: 'histogram' as const,
      aggregator: 'sum' as const,
      values: valuesOf(name, series),
    }),
    reset: () => undefined,
  });
  registry.registerMetric(
    histogram(
      'mcp_server_operation_duration_seconds',
      'MCP requests served to agents, as their SERVER spans measured them (mcp.server.operation.duration).',
      durations.server,
    ) as never,
  );
  registry.registerMetric(
    histogram(
      'mcp_client_operation_duration_seconds',
      'MCP requests sent to upstreams, as their CLIENT spans measured them (mcp.client.operation.duration).',
      durations.client,
    ) as never,
  );
}

/** The exposition values of one histogram: cumulative buckets with `le`, then sum and count, per series. */
function valuesOf(name: string, series: ReadonlyMap<string, DurationSeries>) {
  const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
  for (const { labels, buckets, sum, count } of series.values()) {
    let cumulative = 0;
    DURATION_BUCKETS.forEach((bound, i) => {
      cumulative += buckets[i] ?? 0;
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
    });
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
    values.push({ metricName: `${name}_sum`, labels, value: sum });
    values.push({ metricName: `${name}_count`, labels, value: count });
  }
  return values;
}
