/**
 * Tracing for tests (issue 21): a tracer whose spans end up in the SDK's in-memory exporter
 * at once (a simple processor), as a service's `tracing` option takes it.
 * @module
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Tracing } from '../../src/telemetry/start-tracing.js';

/** The tracing and its exporter; `slowPingMs` 0 makes every health ping a span. */
export function memoryTracing({ slowPingMs = 60_000 }: { slowPingMs?: number } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracing: Tracing = {
    tracer: provider.getTracer('test'),
    dropped: () => 0,
    slowPingMs,
    shutdown: () => provider.shutdown(),
  };
  return { tracing, exporter, spans: () => exporter.getFinishedSpans() };
}
