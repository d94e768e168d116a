/**
 * A batch span processor that encodes each span as it ends (issue 21, ADR 035 "Revised"):
 * the SDK's `BatchSpanProcessor` keeps every ended span object until its batch is exported,
 * a quarter of a second and more under load, long enough for the young generation's
 * scavenges to copy them and promote them to the old one, whose collections then ran twice
 * as often with traces on. Here a span is encoded in `onEnd` (encode-spans.ts: its OTLP
 * protobuf bytes) and the span object dies young. Nor is a span's encoding an object of its
 * own while it waits: it is appended to the batch being built (one growing buffer), and a
 * full batch is one request's bytes — a thousand small buffers held a quarter of a second
 * cost the collector as much again as the encoding (ADR 035, "Revised again").
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

/** Builds a batch: spans added one by one, then sealed into what one export sends. */
export type BatchBuilder<B> = {
  /** Add one ended span; false if it cannot be encoded (dropped, counted). */
  add(span: ReadableSpan): boolean;
  /** The batch of the spans added since the last seal; the builder starts empty again. */
  seal(): B;
};

/** Where sealed batches go: the OTLP/HTTP export of one request. */
export type EncodedExporter<B> = {
  export(batch: B, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
};

/** Options of {@link createEncodedBatch}. */
export type EncodedBatchOptions<B> = {
  readonly builder: BatchBuilder<B>;
  readonly exporter: EncodedExporter<B>;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  readonly scheduledDelayMs: number;
  readonly exportTimeoutMs: number;
  readonly health: ExportHealth;
};

/** The processor, and what it has lost so far. */
export type EncodedBatch = SpanProcessor & { dropped(): number };

/** A processor that encodes ended, sampled spans and exports them in batches. */
export function createEncodedBatch<B>(options: EncodedBatchOptions<B>): EncodedBatch {
  const { builder, exporter, maxQueueSize, health } = options;
  const batchSize = Math.min(options.maxExportBatchSize, maxQueueSize);
  /** Sealed batches waiting, oldest first, with their span counts. */
  const sealed: { batch: B; count: number }[] = [];
  /** Spans in the batch being built; spans waiting in all (sealed and open). */
  let open = 0;
  let waiting = 0;
  let dropped = 0;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  /** The export under way; the next waits for it. */
  let exporting: Promise<void> | undefined;

  const seal = () => {
    if (open === 0) return;
    sealed.push({ batch: builder.seal(), count: open });
    open = 0;
  };

  const exportOnce = (batch: B, count: number): Promise<void> =>
    new Promise((resolve) => {
      let settled = false;
      const settle = (result: ExportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        const failed = result.code !== ExportResultCode.SUCCESS;
        if (failed) dropped += count;
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
        exporter.export(batch, settle);
      } catch (error) {
        settle({ code: ExportResultCode.FAILED, error: error as Error });
      }
    });

  /** Whether the export under way is to take what waits to the last span, not full batches only. */
  let all = false;

  /** Export what waits, a batch at a time: all of it when `everything`, else sealed (full) batches only. */
  const drain = (everything: boolean): Promise<void> => {
    if (everything) all = true;
    if (exporting) return exporting;
    if (all) seal();
    // Nothing to send: no loop (one that ended at once would clear `exporting` before it was set).
    if (sealed.length === 0) {
      all = false;
      return Promise.resolve();
    }
    const run = (async () => {
      try {
        for (;;) {
          if (all) seal();
          const next = sealed.shift();
          if (!next) break;
          waiting -= next.count;
          await exportOnce(next.batch, next.count);
        }
      } finally {
        all = false;
        exporting = undefined;
        // Spans that came during the export and fill no batch leave with the next timer.
        if (waiting > 0) schedule();
      }
    })();
    exporting = run;
    return run;
  };

  function schedule(): void {
    if (sealed.length > 0) {
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
      if (waiting >= maxQueueSize || !builder.add(span)) {
        dropped++;
        return;
      }
      open++;
      waiting++;
      if (open >= batchSize) seal();
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
