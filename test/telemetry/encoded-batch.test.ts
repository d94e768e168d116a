/**
 * The processor that encodes spans as they end (encoded-batch.ts): batches of at most
 * `maxExportBatchSize`, a partial batch sent after `scheduledDelayMs`, the queue bounded
 * and its losses counted (full queue, failed or timed-out export), one health line per
 * change, everything sent on shutdown; unsampled spans never queued.
 */
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { AlwaysOffSampler, BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { type BatchBuilder, createEncodedBatch, type EncodedExporter } from '../../src/telemetry/encoded-batch.js';

/** An exporter that holds each export until the test answers it. */
function heldExporter() {
  const held: { names: string[]; done: (result: ExportResult) => void }[] = [];
  let shut = false;
  const exporter: EncodedExporter<string[]> = {
    export(names, done) {
      held.push({ names, done });
    },
    shutdown: async () => {
      shut = true;
    },
  };
  const answer = (code: ExportResultCode) => {
    const next = held.shift();
    if (!next) throw new Error('no export waiting');
    next.done({ code, ...(code === ExportResultCode.FAILED ? { error: new Error('ECONNREFUSED') } : {}) });
    return next.names;
  };
  return { exporter, held, answer, shut: () => shut };
}

/** A batch of spans as their names. */
function namesBuilder(): BatchBuilder<string[]> {
  let names: string[] = [];
  return {
    add: (span: ReadableSpan) => names.push(span.name) > 0,
    seal: () => {
      const batch = names;
      names = [];
      return batch;
    },
  };
}

/** Wait until `check` holds: the processor exports on a later turn of the event loop, or at its timers. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
}

const setup = (
  bounds: Partial<{
    maxQueueSize: number;
    maxExportBatchSize: number;
    scheduledDelayMs: number;
    exportTimeoutMs: number;
  }> = {},
) => {
  const target = heldExporter();
  const health: boolean[] = [];
  const processor = createEncodedBatch({
    builder: namesBuilder(),
    exporter: target.exporter,
    maxQueueSize: 4,
    maxExportBatchSize: 2,
    scheduledDelayMs: 60_000,
    exportTimeoutMs: 60_000,
    health: (failing) => health.push(failing),
    ...bounds,
  });
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('t');
  const end = (...names: string[]) => {
    for (const name of names) tracer.startSpan(name).end();
  };
  return { ...target, processor, health, end };
};

describe('createEncodedBatch', () => {
  it('sends full batches one at a time, drops and counts spans past the queue bound, and counts a failed batch', async () => {
    const t = setup();
    t.end('a', 'b');
    await until(() => t.held.length === 1);
    // While a-b are out, four wait (c d e f); g finds the queue full.
    t.end('c', 'd', 'e', 'f', 'g');
    expect(t.processor.dropped()).toBe(1);
    expect(t.held).toHaveLength(1);
    expect(t.answer(ExportResultCode.FAILED)).toEqual(['a', 'b']);
    expect(t.processor.dropped()).toBe(3);
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['c', 'd']);
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['e', 'f']);
    expect(t.processor.dropped()).toBe(3);
    // One line when exports began failing, one when they worked again.
    expect(t.health).toEqual([true, false]);
  });

  it('sends a partial batch once scheduledDelayMs has passed since its first span', async () => {
    const t = setup({ scheduledDelayMs: 20 });
    t.end('lonely');
    expect(t.held).toHaveLength(0);
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['lonely']);
  });

  it('counts a batch the collector never answers within exportTimeoutMs as dropped, and goes on', async () => {
    const t = setup({ exportTimeoutMs: 20 });
    t.end('a', 'b');
    await until(() => t.processor.dropped() === 2);
    expect(t.health).toEqual([true]);
    t.end('c', 'd');
    await until(() => t.held.length === 2);
    t.held.shift();
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['c', 'd']);
  });

  it('sends everything on shutdown, then shuts the exporter down', async () => {
    const t = setup({ maxExportBatchSize: 3, maxQueueSize: 10 });
    t.end('a', 'b', 'c', 'd');
    const stopping = t.processor.shutdown();
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['a', 'b', 'c']);
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['d']);
    await stopping;
    expect(t.shut()).toBe(true);
    expect(t.processor.dropped()).toBe(0);
  });

  it('goes on exporting after a flush that found nothing to send (a drain of an empty queue)', async () => {
    const t = setup({ scheduledDelayMs: 20 });
    await t.processor.forceFlush();
    t.end('after');
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['after']);
    // And again, after a batch went out and its timer found the queue empty.
    await t.processor.forceFlush();
    t.end('again');
    await until(() => t.held.length === 1);
    expect(t.answer(ExportResultCode.SUCCESS)).toEqual(['again']);
  });

  it('never queues an unsampled span', async () => {
    const target = heldExporter();
    const processor = createEncodedBatch({
      builder: namesBuilder(),
      exporter: target.exporter,
      maxQueueSize: 1,
      maxExportBatchSize: 1,
      scheduledDelayMs: 60_000,
      exportTimeoutMs: 60_000,
      health: () => undefined,
    });
    const tracer = new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [processor] }).getTracer(
      't',
    );
    tracer.startSpan('unsampled').end();
    await processor.forceFlush();
    expect(target.held).toHaveLength(0);
    expect(processor.dropped()).toBe(0);
  });
});
