/**
 * A batch span processor that encodes each span as it ends (issue 21, ADR 035 "Revised"):
 * the SDK's `BatchSpanProcessor` keeps every ended span object until its batch is exported,
 * a quarter of a second and more under load, long enough for the young generation's
 * scavenges to copy them and promote them to the old one, whose collections then ran twice
 * as often with traces on. Here a span is encoded in `onEnd` (encode-spans.ts: its OTLP
 * protobuf bytes) and the span object dies young; the queue holds the bytes, and a batch is
 * one request made of them.
 *
 * Bounded like the SDK's: a span that finds `maxQueueSize` waiting is dropped and counted,
 * so is every span of a batch the collector did not take; one export at a time, each given
 * `exportTimeoutMs`; a batch leaves when `maxExportBatchSize` spans wait, or
 * `scheduledDelayMs` after the first of them. A call never waits for any of it.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ExportHealth } from './count-dropped.js';

/** Where batches of encoded spans go: the OTLP/HTTP export of their concatenation. */
export type EncodedExporter<T> = {
  export(chunks: T[], done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
};

/** Options of {@link createEncodedBatch}. */
export type EncodedBatchOptions<T> = {
  /** One span, encoded; undefined if it cannot be (dropped, counted). */
  readonly encode: (span: ReadableSpan) => T | undefined;
  readonly exporter: EncodedExporter<T>;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  readonly scheduledDelayMs: number;
  readonly exportTimeoutMs: number;
  readonly health: ExportHealth;
};

/** The processor, and what it has lost so far. */
export type EncodedBatch = SpanProcessor & { dropped(): number };

/** A processor that encodes ended, sampled spans and exports them in batches. */
export function createEncodedBatch<T>(options: EncodedBatchOptions<T>): EncodedBatch {
  const { encode, exporter, maxQueueSize, health } = options;
  const batchSize = Math.min(options.maxExportBatchSize, maxQueueSize);
  let queue: T[] = [];
  let dropped = 0;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  /** The export under way; the next waits for it. */
  let exporting: Promise<void> | undefined;

  const exportOnce = (chunks: T[]): Promise<void> =>
    new Promise((resolve) => {
      let settled = false;
      const settle = (result: ExportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        const failed = result.code !== ExportResultCode.SUCCESS;
        if (failed) dropped += chunks.length;
        if (failed !== failing) {
          failing = failed;
          health(failed, result.error);
        }
        resolve();
      };
      const deadline = setTimeout(
        () => settle({ code: ExportResultCode.FAILED, error: new Error('export timed out') }),
        options.exportTimeoutMs,
      );
      deadline.unref();
      try {
        exporter.export(chunks, settle);
      } catch (error) {
        settle({ code: ExportResultCode.FAILED, error: error as Error });
      }
    });

  /** Whether the export under way is to take what waits to the last span, not full batches only. */
  let all = false;

  /** Export what waits, a batch at a time: all of it when `everything`, else full batches only. */
  const drain = (everything: boolean): Promise<void> => {
    if (everything) all = true;
    if (exporting) return exporting;
    // Nothing to send: no loop (one that ended at once would clear `exporting` before it was set).
    if (queue.length === 0 || (!all && queue.length < batchSize)) {
      all = false;
      return Promise.resolve();
    }
    const run = (async () => {
      try {
        while (queue.length >= batchSize || (all && queue.length > 0)) {
          const chunks = queue.length <= batchSize ? queue : queue.slice(0, batchSize);
          queue = queue.length <= batchSize ? [] : queue.slice(batchSize);
          await exportOnce(chunks);
        }
      } finally {
        all = false;
        exporting = undefined;
        // Spans that came during the export and fill no batch leave with the next timer.
        if (queue.length > 0) schedule();
      }
    })();
    exporting = run;
    return run;
  };

  function schedule(): void {
    if (queue.length >= batchSize) {
      void drain(false);
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void drain(true);
    }, options.scheduledDelayMs);
    timer.unref();
  }

  const flush = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (exporting) await exporting;
    await drain(true);
  };

  return {
    onStart(_span: Span, _parent: Context) {},
    onEnd(span: ReadableSpan) {
      // Unsampled spans are never exported: they take no place in the queue.
      if ((span.spanContext().traceFlags & 1) === 0) return;
      if (queue.length >= maxQueueSize) {
        dropped++;
        return;
      }
      const bytes = encode(span);
      if (!bytes) {
        dropped++;
        return;
      }
      queue.push(bytes);
      schedule();
    },
    forceFlush: flush,
    async shutdown() {
      await flush();
      await exporter.shutdown();
    },
    dropped: () => dropped,
  };
}
