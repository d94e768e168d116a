/**
 * The traces' metric (issue 21): spans dropped because the export queue was full or the
 * collector did not take them, read from the tracing's own count at scrape time.
 * @module
 */
import type { Registry } from 'prom-client';

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
