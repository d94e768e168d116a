/**
 * The tracer of the service's spans (issue 21, ADR 035 "Revised again"): the SDK's sampler
 * and id generator, decided as the SDK's `Tracer.startSpan` decides them (a parent's trace
 * continued, `root` starting a new one, an unrecorded span only carrying its context), and
 * {@link LeanSpan}s handed to the processors directly: no `MultiSpanProcessor`, no meter of
 * the tracer's own, no second copy of the attributes.
 *
 * Measured (performance.md, "Issue 21, fourth round"): the SDK's spans cost the service as
 * much as all the rest of tracing together — two spans a request, ended and encoded.
 * @module
 */
import {
  type Context,
  context as contextApi,
  INVALID_SPAN_CONTEXT,
  SamplingDecision,
  type Span,
  type SpanContext,
  SpanKind,
  type SpanOptions,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { type IdGenerator, RandomIdGenerator, type Sampler } from '@opentelemetry/sdk-trace-base';
import { LeanSpan, type SpanShared } from './lean-span.js';

/** What {@link createLeanTracer} takes. */
export type LeanTracerOptions = SpanShared & {
  readonly sampler: Sampler;
  /** Ids of new traces and spans; the SDK's random one by default. */
  readonly ids?: IdGenerator;
};

/** A tracer whose recording spans are {@link LeanSpan}s. */
export function createLeanTracer({ sampler, ids = new RandomIdGenerator(), ...shared }: LeanTracerOptions): Tracer {
  const startSpan = (name: string, options: SpanOptions = {}, given?: Context): Span => {
    let parent = given ?? contextApi.active();
    if (options.root) parent = trace.deleteSpan(parent);
    if (isTracingSuppressed(parent)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parentContext = trace.getSpanContext(parent);
    const valid = parentContext !== undefined && trace.isSpanContextValid(parentContext);
    // The span's id first, as the SDK draws them.
    const spanId = ids.generateSpanId();
    const traceId = valid ? parentContext.traceId : ids.generateTraceId();
    const kind = options.kind ?? SpanKind.INTERNAL;
    const sampled = sampler.shouldSample(parent, traceId, name, kind, options.attributes ?? {}, options.links ?? []);
    const traceState = sampled.traceState ?? (valid ? parentContext.traceState : undefined);
    const spanContext: SpanContext = {
      traceId,
      spanId,
      traceFlags: sampled.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState,
    };
    if (sampled.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const attributes = sampled.attributes ? { ...options.attributes, ...sampled.attributes } : options.attributes;
    return new LeanSpan(
      shared,
      spanContext,
      name,
      kind,
      valid ? parentContext : undefined,
      parent,
      attributes,
      options.links,
      options.startTime,
    );
  };
  const startActiveSpan = (name: string, ...rest: unknown[]): unknown => {
    const fn = rest.at(-1) as (span: Span) => unknown;
    const options = (rest.length >= 2 ? rest[0] : undefined) as SpanOptions | undefined;
    const parent = (rest.length >= 3 ? rest[1] : undefined) as Context | undefined;
    const base = parent ?? contextApi.active();
    const span = startSpan(name, options, base);
    return contextApi.with(trace.setSpan(base, span), fn, undefined, span);
  };
  return { startSpan, startActiveSpan } as Tracer;
}
