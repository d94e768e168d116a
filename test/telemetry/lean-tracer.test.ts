/**
 * The service's tracer of lean spans (lean-tracer.ts, lean-span.ts) against the SDK's own
 * tracer: the same operations, the same ids, give the same ended spans (what the processors
 * and the exporters read) and the same OTLP bytes once the times are set aside; sampling
 * decides as the SDK's does (a ratio of 0, an unsampled parent, `root`); an ended span
 * changes no more; times given as a `performance.now()` reading, epoch ms or a Date.
 */
import {
  context,
  ROOT_CONTEXT,
  type Span,
  type SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  type IdGenerator,
  InMemorySpanExporter,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLeanTracer } from '../../src/telemetry/lean-tracer.js';

const resource = resourceFromAttributes({ 'service.name': 'boternity' });

/** Ids counted from 1, the same for both tracers when each gets its own. */
function countingIds(): IdGenerator {
  let n = 0;
  return {
    generateTraceId: () => (++n).toString(16).padStart(32, 'a'),
    generateSpanId: () => (++n).toString(16).padStart(16, 'b'),
  };
}

/** Both tracers, each with its exporter, the same sampler and ids. */
function both(sampler: () => Sampler = () => new AlwaysOnSampler()) {
  const sdkSpans = new InMemorySpanExporter();
  const leanSpans = new InMemorySpanExporter();
  const sdk = new BasicTracerProvider({
    resource,
    sampler: sampler(),
    idGenerator: countingIds(),
    spanProcessors: [new SimpleSpanProcessor(sdkSpans)],
  }).getTracer('boternity');
  const lean = createLeanTracer({
    resource,
    scope: { name: 'boternity' },
    sampler: sampler(),
    ids: countingIds(),
    processors: [new SimpleSpanProcessor(leanSpans)],
  });
  return { sdk, lean, sdkSpans, leanSpans };
}

/** What a processor or exporter reads of an ended span, times aside (the two clocks differ). */
const readOf = (span: ReadableSpan) => ({
  name: span.name,
  kind: span.kind,
  context: span.spanContext(),
  parent: span.parentSpanContext,
  attributes: span.attributes,
  events: span.events.map(({ time: _time, ...event }) => event),
  links: span.links,
  status: span.status,
  ended: span.ended,
  dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
  resource: span.resource.attributes,
  scope: span.instrumentationScope.name,
  durationOk: span.duration[0] >= 0 && span.duration[1] >= 0,
});

const remote = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
});

/** One exception for both tracers (its stack names where it was made). */
const FAILURE = new TypeError('no such tool');

type Step = { name: string; kind: number; attributes: Record<string, unknown>; remote: boolean; extra: number };

/** One span per step, made by `tracer` the same way each time. */
function play(tracer: Tracer, steps: Step[]): void {
  let parent = ROOT_CONTEXT;
  for (const step of steps) {
    const span: Span = tracer.startSpan(
      step.name,
      { kind: step.kind as SpanKind, attributes: step.attributes as never },
      step.remote ? remote : parent,
    );
    if (step.extra % 5 === 1) span.addEvent('backoff', { 'delay.ms': 1500, bad: undefined as never });
    if (step.extra % 5 === 2) span.setStatus({ code: SpanStatusCode.ERROR, message: `failed: ${step.name}` });
    if (step.extra % 5 === 3) span.setStatus({ code: SpanStatusCode.OK });
    if (step.extra % 5 === 4) {
      span.recordException(FAILURE);
      span.addLink({ context: remote && (trace.getSpanContext(remote) as never), attributes: { why: 'retry' } });
    }
    span.setAttribute('later', step.extra);
    span.setAttribute('skipped', undefined as never);
    span.updateName(`${step.name}!`);
    parent = trace.setSpan(parent, span);
    span.end();
    // Ended: nothing changes any more.
    span.setAttribute('after', 1);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.constantFrom(null, undefined, { nested: true }),
);

describe('createLeanTracer', () => {
  it('ends the spans the SDK ends for the same operations: names, kinds, parents, attributes, events, links, status', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.string({ minLength: 1, maxLength: 30 }),
            kind: fc.integer({ min: 0, max: 4 }),
            attributes: fc.dictionary(fc.string({ minLength: 0, maxLength: 12 }), value, { maxKeys: 6 }),
            remote: fc.boolean(),
            extra: fc.nat(),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (steps) => {
          const { sdk, lean, sdkSpans, leanSpans } = both();
          play(sdk, steps);
          play(lean, steps);
          expect(leanSpans.getFinishedSpans().map(readOf)).toEqual(sdkSpans.getFinishedSpans().map(readOf));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('samples as the SDK: nothing recorded with a ratio of 0, a child of an unsampled parent unsampled, root starts a trace', () => {
    const off = both(() => new AlwaysOffSampler());
    const dropped = off.lean.startSpan('tools/call echo');
    expect(dropped.isRecording()).toBe(false);
    expect(dropped.spanContext().traceFlags).toBe(TraceFlags.NONE);
    dropped.end();
    expect(off.leanSpans.getFinishedSpans()).toEqual([]);

    const parented = both(() => new ParentBasedSampler({ root: new AlwaysOnSampler() }));
    const unsampled = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    for (const tracer of [parented.sdk, parented.lean]) {
      const child = tracer.startSpan('child', {}, unsampled);
      expect(child.isRecording()).toBe(false);
      expect(child.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
      const root = tracer.startSpan('root', { root: true }, remote);
      expect(root.spanContext().traceId).not.toBe('0af7651916cd43dd8448eb211c80319c');
      root.end();
    }
    expect(parented.leanSpans.getFinishedSpans().map(readOf)).toEqual(parented.sdkSpans.getFinishedSpans().map(readOf));
  });

  it('takes its times as a performance.now() reading, epoch milliseconds or a Date, and tells each processor in order', () => {
    const seen: string[] = [];
    const processor = (name: string): SpanProcessor => ({
      onStart: (span) => seen.push(`${name} start ${(span as unknown as ReadableSpan).name}`),
      onEnd: (span) => seen.push(`${name} end ${span.name}`),
      forceFlush: async () => undefined,
      shutdown: async () => undefined,
    });
    const tracer = createLeanTracer({
      resource,
      scope: { name: 'boternity' },
      sampler: new AlwaysOnSampler(),
      processors: [processor('a'), processor('b')],
    });
    // Readings of the past (a number later than now is taken as epoch milliseconds, as by the SDK).
    const started = performance.now() - 5;
    const span = tracer.startSpan('step', { startTime: started }, context.active()) as unknown as ReadableSpan & Span;
    span.end(started + 2.5);
    const epochMs = (t: readonly [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(Math.abs(epochMs(span.startTime) - (performance.timeOrigin + started))).toBeLessThan(0.01);
    expect(span.duration[0] * 1e3 + span.duration[1] / 1e6).toBeCloseTo(2.5, 3);
    span.end(); // a second end is nothing
    const at = Date.UTC(2026, 10, 27, 12);
    const dated = tracer.startSpan('dated', { startTime: new Date(at) }) as unknown as ReadableSpan & Span;
    dated.end(at + 1000);
    expect(dated.startTime).toEqual([at / 1000, 0]);
    expect(dated.duration).toEqual([1, 0]);
    // An end before the start is the start.
    const backwards = tracer.startSpan('backwards', { startTime: at }) as unknown as ReadableSpan & Span;
    backwards.end(at - 5);
    expect(backwards.duration).toEqual([0, 0]);
    expect(backwards.endTime).toEqual(backwards.startTime);
    expect(seen).toEqual([
      'a start step',
      'b start step',
      'a end step',
      'b end step',
      'a start dated',
      'b start dated',
      'a end dated',
      'b end dated',
      'a start backwards',
      'b start backwards',
      'a end backwards',
      'b end backwards',
    ]);
  });
});
