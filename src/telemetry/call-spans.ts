/**
 * The spans of MCP requests, after the OpenTelemetry MCP semantic conventions (`gen-ai/mcp.md`,
 * development status): a SERVER span per agent request, named `{mcp.method.name} {target}`,
 * and a CLIENT span per request relayed upstream, each carrying its trace on in `params._meta`.
 * `@opentelemetry/api` only; built only when tracing is on (the callers hold a null tracer otherwise).
 * @module
 */
import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { extractTraceContext, withTraceFields } from './trace-context.js';

/** A request the gateway serves, as far as its span needs to know. */
export type ServedRequest = {
  readonly method: string;
  /** The request's params (the tool's or prompt's name, a resource's URI, `_meta`). */
  readonly params: unknown;
  /** The HTTP headers it came with; none over stdio. */
  readonly headers?: Readonly<Record<string, unknown>> | undefined;
  readonly sessionId?: string | undefined;
  readonly requestId?: string | number | undefined;
  /** The protocol revision, when the request says it elsewhere than the `mcp-protocol-version` header (2026-07-28: `_meta`). */
  readonly protocolVersion?: string | undefined;
  /** The caller: a token's id (never the token) and its bot. */
  readonly clientId: string | null;
  readonly bot: string | null;
};

/** A span begun, and the context its children are started in. */
export type Traced = { readonly span: Span; readonly context: Context };

/** The low-cardinality target of a span name: a tool's or prompt's name (a resource URI is an attribute only). */
function targetOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  const name = params?.name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * The attributes of a request's span, in one literal (one shape, no property added one by one;
 * a key left undefined is not set on the span): those both kinds share for `method` with
 * `params`, then `more`.
 */
function requestAttributes(
  method: string,
  params: Record<string, unknown> | undefined,
  target: string | undefined,
): Attributes {
  const tool = method === 'tools/call' ? target : undefined;
  const uri = params?.uri;
  return {
    'mcp.method.name': method,
    'gen_ai.tool.name': tool,
    'gen_ai.operation.name': tool === undefined ? undefined : 'execute_tool',
    'gen_ai.prompt.name': method === 'prompts/get' ? target : undefined,
    'mcp.resource.uri': typeof uri === 'string' && method.startsWith('resources/') ? uri : undefined,
  };
}

/** Begin the SERVER span of an agent request: the parent is the agent's `_meta`, then its HTTP headers. */
export function startServerSpan(tracer: Tracer, request: ServedRequest): Traced {
  const params = (request.params ?? undefined) as Record<string, unknown> | undefined;
  const meta = params?._meta as Record<string, unknown> | undefined;
  const parent = extractTraceContext(meta, request.headers);
  const target = targetOf(request.method, params);
  const version = request.protocolVersion ?? request.headers?.['mcp-protocol-version'];
  const span = tracer.startSpan(
    target === undefined ? request.method : `${request.method} ${target}`,
    { kind: SpanKind.SERVER, attributes: requestAttributes(request.method, params, target) },
    parent,
  );
  span.setAttributes({
    'mcp.session.id': request.sessionId || undefined,
    'jsonrpc.request.id': request.requestId === undefined ? undefined : String(request.requestId),
    'mcp.protocol.version': typeof version === 'string' ? version : undefined,
    'network.transport': request.headers ? 'tcp' : 'pipe',
    'network.protocol.name': request.headers ? 'http' : undefined,
    'boternity.client': request.clientId || undefined,
    'boternity.bot': request.bot || undefined,
  });
  return { span, context: trace.setSpan(parent, span) };
}

/** The upstream request a CLIENT span is begun for. */
export type RelayedRequest = {
  readonly method: string;
  readonly params: unknown;
  readonly server: string;
  readonly transport: 'stdio' | 'http' | 'sse';
};

/** Begin the CLIENT span of a request relayed to an upstream, as a child of `parent`'s span. */
export function startClientSpan(tracer: Tracer, parent: Context, request: RelayedRequest): Span {
  const params = (request.params ?? undefined) as Record<string, unknown> | undefined;
  const target = targetOf(request.method, params);
  // The request's own span is told which server answered it (its route is known only now).
  trace.getSpan(parent)?.setAttribute('boternity.server', request.server);
  const span = tracer.startSpan(
    target === undefined ? request.method : `${request.method} ${target}`,
    { kind: SpanKind.CLIENT, attributes: requestAttributes(request.method, params, target) },
    parent,
  );
  span.setAttributes({
    'boternity.server': request.server,
    'network.transport': request.transport === 'stdio' ? 'pipe' : 'tcp',
    'network.protocol.name': request.transport === 'stdio' ? undefined : 'http',
  });
  return span;
}

/**
 * End `span` with how the request ended: a result (`isError`: `error.type` `tool_error`) or
 * a failure (`error.type`: its JSON-RPC code, else its class; the status says why).
 */
export function endRequestSpan(span: Span, outcome: { result: unknown } | { error: unknown }): void {
  if ('error' in outcome) {
    const { error } = outcome;
    const code = (error as { code?: unknown } | null)?.code;
    span.setAttribute('error.type', typeof code === 'number' ? String(code) : errorName(error));
    if (typeof code === 'number') span.setAttribute('rpc.response.status_code', String(code));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  } else if ((outcome.result as { isError?: unknown } | null)?.isError === true) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool_error' });
  }
  span.end();
}

/** The class of a failure, for `error.type` (`_OTHER` when it has none). */
function errorName(error: unknown): string {
  return error instanceof Error ? error.constructor.name || error.name : '_OTHER';
}

/** A guard step shorter than this that changed nothing is not a span: it took no time worth one. */
export const STEP_SPAN_MS = 1;

/**
 * Run `work`, a guard step, as a child span `name` of `parent` when it took time (at least
 * {@link STEP_SPAN_MS}), failed, or `notable` says its result matters (it changed what the
 * agent gets); without a tracer or a parent, just run it. The span is made once the step
 * has ended, with its times: most steps take microseconds and make none. Synchronous steps only.
 */
export function stepSpan<T>(
  tracer: Tracer | null,
  parent: Context | null | undefined,
  name: string,
  work: () => T,
  notable?: (result: T) => boolean,
): T {
  if (!tracer || !parent) return work();
  const started = performance.now();
  const begin = () => tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: started }, parent);
  let result: T;
  try {
    result = work();
  } catch (error) {
    const failed = begin();
    failed.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    failed.end();
    throw error;
  }
  const ended = performance.now();
  if (ended - started >= STEP_SPAN_MS || notable?.(result)) begin().end(ended);
  return result;
}

/**
 * Send `request` upstream under a CLIENT span, child of `parent`: `send` gets the params with
 * the span's trace context in `_meta` (SEP-414) and the span ends with the answer.
 */
export function sendTraced<P extends { _meta?: Record<string, unknown> | undefined }, R>(
  tracer: Tracer,
  parent: Context,
  request: RelayedRequest & { readonly params: P },
  send: (params: P) => Promise<R>,
): Promise<R> {
  // No context of its own: nothing is started under it, and its trace fields are written from
  // its span context (the baggage is the request's).
  const span = startClientSpan(tracer, parent, request);
  const params = { ...request.params, _meta: withTraceFields(request.params._meta, span.spanContext(), parent) };
  return endedWith(span, () => send(params));
}

/**
 * Serve `request` under its SERVER span: `work` gets the span's context (explicitly: no
 * context manager is set, ADR 035; the lines the call path logs take it from there), and the
 * span ends with the answer.
 */
export function serveTraced<T>(
  tracer: Tracer,
  request: ServedRequest,
  work: (context: Context) => Promise<T>,
): Promise<T> {
  const { span, context } = startServerSpan(tracer, request);
  return endedWith(span, () => work(context));
}

/** The outcome of `work`, once `span` has ended with it (a throw before its promise too). */
async function endedWith<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    endRequestSpan(span, { result });
    return result;
  } catch (error) {
    endRequestSpan(span, { error });
    throw error;
  }
}

/** The trace id of a request's span context, for its audit row (issue 21); null when it has none (traces off). */
export function traceIdOf(context: Context | null | undefined): string | null {
  return (context && trace.getSpanContext(context)?.traceId) || null;
}
