/**
 * The bounded export (issue 21): spans past the queue bound are dropped and counted before
 * the batch processor sees them, and every span of a failed export is counted too.
 */
import { ExportResultCode } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { countDropped } from '../../src/telemetry/count-dropped.js';

/** A collector that is down: exports wait until `release`, then fail (and fail at once from then on). */
function failingExporter() {
  const pending: (() => void)[] = [];
  let holding = true;
  const exporter: SpanExporter = {
    export(_spans: ReadableSpan[], done) {
      const fail = () => done({ code: ExportResultCode.FAILED, error: new Error('ECONNREFUSED') });
      if (holding) pending.push(fail);
      else fail();
    },
    shutdown: async () => undefined,
  };
  const release = () => {
    holding = false;
    for (const fail of pending.splice(0)) fail();
  };
  return { exporter, release, pending };
}

describe('countDropped', () => {
  it('drops and counts spans over maxQueueSize, and counts every span of a failed export', async () => {
    const { exporter, release, pending } = failingExporter();
    const health: boolean[] = [];
    const processor = countDropped(
      exporter,
      3,
      (failing) => health.push(failing),
      (counting) =>
        new BatchSpanProcessor(counting, { maxQueueSize: 3, maxExportBatchSize: 2, scheduledDelayMillis: 60_000 }),
    );
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('t');
    // Two go out in a batch the collector holds; three wait in the queue; the last two find it full.
    for (let i = 0; i < 7; i++) tracer.startSpan(`s${i}`).end();
    expect(pending).toHaveLength(1);
    expect(processor.dropped()).toBe(2);
    release();
    expect(processor.dropped()).toBe(4);
    // A flush on stop says the collector did not take them.
    await expect(processor.forceFlush()).rejects.toThrow('ECONNREFUSED');
    expect(processor.dropped()).toBe(7);
    expect(health).toEqual([true]);
  });

  it('counts nothing when exports succeed, the queue emptying with each batch', async () => {
    const memory = new InMemorySpanExporter();
    const processor = countDropped(
      memory,
      1,
      () => undefined,
      (counting) => new BatchSpanProcessor(counting, { maxQueueSize: 1, scheduledDelayMillis: 60_000 }),
    );
    const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('t');
    tracer.startSpan('one').end();
    await processor.forceFlush();
    tracer.startSpan('two').end();
    await processor.forceFlush();
    expect(memory.getFinishedSpans().map((s) => s.name)).toEqual(['one', 'two']);
    expect(processor.dropped()).toBe(0);
  });
});
