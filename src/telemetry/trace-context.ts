/**
 * W3C trace context carried in MCP messages (SEP-414: `params._meta.traceparent`,
 * `tracestate`, `baggage`) and in the HTTP `traceparent` header: read into an OpenTelemetry
 * `Context`, and written from a span, by `@opentelemetry/core`'s W3C propagators used
 * directly on the record at hand (no global propagator is registered: nothing process-wide
 * is needed).
 * @module
 */
import {
  type Context,
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  type SpanContext,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import {
  isTracingSuppressed,
  parseTraceParent,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';

/** The `_meta` keys of SEP-414 (also the W3C header names). */
export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';
export const BAGGAGE = 'baggage';

/** What a `_meta` or a header set may carry. */
type Carrier = Readonly<Record<string, unknown>> | undefined;

/** The longest value read of each field: an agent's text, not ours to hold without bound. */
const LONGEST_CONTEXT = 512;
const LONGEST_BAGGAGE = 8192;

/** A field of a `_meta` or a Node header record (lower-case names; repeated headers joined); too long: none. */
const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier ?? {}),
  get(carrier, key) {
    const value = carrier?.[key];
    const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : undefined;
    return text !== undefined && text.length <= (key === BAGGAGE ? LONGEST_BAGGAGE : LONGEST_CONTEXT)
      ? text
      : undefined;
  },
};
const setter: TextMapSetter<Record<string, string>> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};
const traceContext = new W3CTraceContextPropagator();
const baggage = new W3CBaggagePropagator();

/** The remote span context a `traceparent` (and `tracestate`) names; null when it is not one. */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): SpanContext | null {
  if (typeof traceparent !== 'string' || traceparent.length > LONGEST_CONTEXT) return null;
  const parsed = parseTraceParent(traceparent.trim());
  if (!parsed) return null;
  const context: SpanContext = { ...parsed, traceFlags: parsed.traceFlags & 1, isRemote: true };
  if (typeof tracestate === 'string' && tracestate.length > 0 && tracestate.length <= LONGEST_CONTEXT)
    context.traceState = createTraceState(tracestate);
  return isSpanContextValid(context) ? context : null;
}

/**
 * The parent of a request's span: the agent's `params._meta` first, then the HTTP headers
 * (`traceparent`, `tracestate`); no context at all: a new trace (the root context). The
 * baggage comes from the same place as the parent.
 */
export function extractTraceContext(meta: Carrier, headers?: Carrier): Context {
  const fromMeta = meta && TRACEPARENT in meta ? traceContext.extract(ROOT_CONTEXT, meta, getter) : ROOT_CONTEXT;
  // Most requests carry no trace at all: nothing to read then.
  if (
    fromMeta === ROOT_CONTEXT &&
    !(meta && BAGGAGE in meta) &&
    !(headers && (TRACEPARENT in headers || BAGGAGE in headers))
  )
    return ROOT_CONTEXT;
  const useMeta = trace.getSpanContext(fromMeta) !== undefined || !headers;
  const context = useMeta ? fromMeta : traceContext.extract(ROOT_CONTEXT, headers, getter);
  return baggage.extract(context, useMeta ? meta : headers, getter);
}

/** The `traceparent` of `span`'s context: version 00, sampled flag as it is. */
export function formatTraceparent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-0${span.traceFlags & 1}`;
}

/**
 * The `_meta` fields that carry `span` (and the baggage of `context`) to the next hop; they
 * replace whatever trace fields the request had (the agent's own are its parent's, not ours).
 */
export function traceFields(span: SpanContext, context: Context): Record<string, string> {
  const fields: Record<string, string> = {};
  // Written from the span context itself, as the W3C propagator writes them (no context made for it).
  if (isSpanContextValid(span) && !isTracingSuppressed(context)) {
    fields[TRACEPARENT] = formatTraceparent(span);
    const state = span.traceState?.serialize();
    if (state) fields[TRACESTATE] = state;
  }
  baggage.inject(context, fields, setter);
  return fields;
}

/**
 * `meta` with the trace fields of `span` in place of any it had; the rest (a progress token,
 * the client's own keys) is kept as it was.
 */
export function withTraceFields(
  meta: Readonly<Record<string, unknown>> | undefined,
  span: SpanContext,
  context: Context,
): Record<string, unknown> {
  const fields = traceFields(span, context);
  if (!meta) return fields;
  const carried: Record<string, unknown> = {};
  for (const key in meta)
    if (key !== TRACEPARENT && key !== TRACESTATE && key !== BAGGAGE && Object.hasOwn(meta, key))
      carried[key] = meta[key];
  return Object.assign(carried, fields);
}

/**
 * `params` with the trace of `context`'s span in `_meta` (a server→client request relayed to
 * the agent, SEP-414), replacing the upstream's; `params` itself when there is no span (traces off).
 */
export function carryTrace<P extends { _meta?: Record<string, unknown> | undefined }>(
  params: P,
  context: Context | null | undefined,
): P {
  const span = context && trace.getSpanContext(context);
  return span ? { ...params, _meta: withTraceFields(params._meta, span, context) } : params;
}
