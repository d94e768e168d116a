/**
 * A bounded export that counts what it loses (issue 21): spans wait in a queue of at most
 * `maxQueueSize` for the batch exporter; a span that finds the queue full is dropped, and so
 * is every span of a batch the collector did not take (down, slow past the timeout, refused).
 * The count is what `/metrics` reports; a call never waits for any of it.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Told when exports start failing and when they work again (one line each, not one per batch). */
export type ExportHealth = (failing: boolean, error: Error | undefined) => void;

/** A processor in front of `batch` (which exports through {@link countExports}' exporter) and its count. */
export type CountedProcessor = SpanProcessor & { dropped(): number };

/** The counts an exporter and a processor share. */
type Tally = { queued: number; dropped: number };

/**
 * `exporter`, counting the spans of every failed export as dropped; `tally.queued` goes down
 * by each batch handed over (the batch processor takes them off its queue to export them).
 */
export function countExports(exporter: SpanExporter, tally: Tally, health: ExportHealth): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      tally.queued = Math.max(0, tally.queued - spans.length);
      exporter.export(spans, (result: ExportResult) => {
        const failed = result.code !== ExportResultCode.SUCCESS;
        if (failed) tally.dropped += spans.length;
        if (failed !== failing) {
          failing = failed;
          health(failed, result.error);
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * Build the counted pair: `makeBatch(exporter)` makes the batch processor over the counting
 * exporter; spans past `maxQueueSize` waiting are dropped here, counted, before it sees them.
 */
export function countDropped(
  exporter: SpanExporter,
  maxQueueSize: number,
  health: ExportHealth,
  makeBatch: (exporter: SpanExporter) => SpanProcessor,
): CountedProcessor {
  const tally: Tally = { queued: 0, dropped: 0 };
  const batch = makeBatch(countExports(exporter, tally, health));
  return {
    onStart(span: Span, parent: Context) {
      batch.onStart(span, parent);
    },
    onEnd(span: ReadableSpan) {
      // Unsampled spans are never exported: they take no place in the queue.
      if ((span.spanContext().traceFlags & 1) === 0) return;
      if (tally.queued >= maxQueueSize) {
        tally.dropped++;
        return;
      }
      tally.queued++;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
    dropped: () => tally.dropped,
  };
}
