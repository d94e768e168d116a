/**
 * Tracing for tests (issue 21): the service's own tracer (lean spans, always sampled) whose
 * spans end up in the SDK's in-memory exporter at once (a simple processor), as a service's
 * `tracing` option takes it.
 * @module
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createLeanTracer } from '../../src/telemetry/lean-tracer.js';
import type { Tracing } from '../../src/telemetry/start-tracing.js';

/** The tracing and its exporter; `slowPingMs` 0 makes every health ping a span. */
export function memoryTracing({ slowPingMs = 60_000 }: { slowPingMs?: number } = {}) {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const tracing: Tracing = {
    tracer: createLeanTracer({
      resource: resourceFromAttributes({}),
      scope: { name: 'test' },
      sampler: new AlwaysOnSampler(),
      processors: [processor],
    }),
    dropped: () => 0,
    slowPingMs,
    shutdown: () => processor.shutdown(),
  };
  return { tracing, exporter, spans: () => exporter.getFinishedSpans() };
}
