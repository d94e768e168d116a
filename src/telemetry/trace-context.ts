/**
 * W3C trace context carried in MCP messages (SEP-414: `params._meta.traceparent`,
 * `tracestate`, `baggage`) and in the HTTP `traceparent` header: read into an OpenTelemetry
 * `Context`, and written from a span. `@opentelemetry/api` only, and no global propagator:
 * the formats are small and fixed, and nothing registered process-wide is needed.
 * @module
 */
import {
  type Context,
  createTraceState,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type SpanContext,
  trace,
} from '@opentelemetry/api';

/** The `_meta` keys of SEP-414 (also the W3C header names). */
export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';
export const BAGGAGE = 'baggage';

/** What a `_meta` or a header set may carry. */
type Carrier = Readonly<Record<string, unknown>> | undefined;

const TRACEPARENT_FORMAT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;

/** The remote span context a `traceparent` (and `tracestate`) names; null when it is not one. */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): SpanContext | null {
  if (typeof traceparent !== 'string' || traceparent.length > 512) return null;
  const match = TRACEPARENT_FORMAT.exec(traceparent.trim());
  // Version ff is invalid; version 00 has nothing after the flags.
  if (!match || match[1] === 'ff' || (match[1] === '00' && match[5])) return null;
  const context: SpanContext = {
    traceId: match[2] as string,
    spanId: match[3] as string,
    traceFlags: Number.parseInt(match[4] as string, 16) & 1,
    isRemote: true,
  };
  if (typeof tracestate === 'string' && tracestate.length > 0 && tracestate.length <= 512)
    context.traceState = createTraceState(tracestate);
  return isSpanContextValid(context) ? context : null;
}

/**
 * The parent of a request's span: the agent's `params._meta` first, then the HTTP headers
 * (`traceparent`, `tracestate`); no context at all: a new trace (the root context).
 */
export function extractTraceContext(meta: Carrier, headers?: Carrier): Context {
  let parent: SpanContext | null = null;
  let from = meta;
  if (meta && TRACEPARENT in meta) parent = parseTraceparent(meta[TRACEPARENT], meta[TRACESTATE]);
  if (!parent && headers) {
    parent = parseTraceparent(headerOf(headers, TRACEPARENT), headerOf(headers, TRACESTATE));
    from = headers;
  }
  let context = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
  const baggage = from === headers && headers ? headerOf(headers, BAGGAGE) : meta?.[BAGGAGE];
  if (typeof baggage === 'string' && baggage.length > 0 && baggage.length <= 8192) {
    const entries = parseBaggage(baggage);
    if (entries) context = propagation.setBaggage(context, propagation.createBaggage(entries));
  }
  return context;
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
  const fields: Record<string, string> = { [TRACEPARENT]: formatTraceparent(span) };
  const state = span.traceState?.serialize();
  if (state) fields[TRACESTATE] = state;
  const baggage = propagation.getBaggage(context);
  if (baggage) {
    const text = baggage
      .getAllEntries()
      .map(([key, entry]) => `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}`)
      .join(',');
    if (text) fields[BAGGAGE] = text;
  }
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
  const { [TRACEPARENT]: _p, [TRACESTATE]: _s, [BAGGAGE]: _b, ...rest } = meta ?? {};
  return { ...rest, ...traceFields(span, context) };
}

/** A header from a Node header record (lower-case names; repeated headers joined). */
function headerOf(headers: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : undefined;
}

/** `k=v;props,k2=v2` (W3C baggage); null when nothing in it parses. */
function parseBaggage(text: string): Record<string, { value: string }> | null {
  const entries: Record<string, { value: string }> = {};
  let any = false;
  for (const member of text.split(',').slice(0, 180)) {
    const [pair] = member.split(';');
    const at = pair?.indexOf('=') ?? -1;
    if (!pair || at <= 0) continue;
    try {
      entries[decodeURIComponent(pair.slice(0, at).trim())] = { value: decodeURIComponent(pair.slice(at + 1).trim()) };
      any = true;
    } catch {
      // A member that does not decode is left out, as the W3C propagator does.
    }
  }
  return any ? entries : null;
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
