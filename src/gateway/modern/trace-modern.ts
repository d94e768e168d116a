/**
 * The SERVER span of a 2026-07-28 request (issue 21), named and attributed as a 2025-11-25
 * one (`{mcp.method.name} {target}`, `jsonrpc.request.id`, `boternity.client`, …) with
 * `mcp.protocol.version` 2026-07-28 and no `mcp.session.id` (the era has no session). Its
 * parent is the agent's `params._meta.traceparent`, then the HTTP `traceparent` header.
 * @module
 */
import { PROTOCOL_VERSION_META_KEY, type ServerContext } from '@modelcontextprotocol/server';
import type { Context, Tracer } from '@opentelemetry/api';
import { type ServedRequest, serveTraced } from '../../telemetry/index.js';
import type { AgentSession } from '../session/index.js';

/** The revision a request is served in when its envelope does not say (it always does once checked). */
const MODERN = '2026-07-28';

/** The trace headers of an HTTP request (none over stdio), as the span's parent may be read from them. */
const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * Run `work` for the modern request `method` with `params` on `ctx`: under its SERVER span
 * when `tracer` is set (`work` gets the span's context), else as it is (`work` gets null).
 */
export function serveModernTraced<T>(
  tracer: Tracer | null,
  session: AgentSession,
  request: { readonly method: string; readonly params: unknown; readonly ctx: ServerContext },
  work: (trace: Context | null) => Promise<T>,
): Promise<T> {
  if (!tracer) return work(null);
  return serveTraced(tracer, modernRequest(session, request.method, request.params, request.ctx), work);
}

/** What the span says of a modern request: its method and params (with `_meta`), its headers, who asks. */
function modernRequest(session: AgentSession, method: string, params: unknown, ctx: ServerContext): ServedRequest {
  const version = ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY as keyof typeof ctx.mcpReq.envelope];
  const sent = ctx.http?.req?.headers;
  const headers = sent
    ? Object.fromEntries(TRACE_HEADERS.flatMap((name) => (sent.has(name) ? [[name, sent.get(name)]] : [])))
    : undefined;
  return {
    method,
    // The v2 SDK lifts the envelope out of `_meta`; the trace fields stay (`ctx.mcpReq._meta`).
    params: { ...(params as object | undefined), _meta: ctx.mcpReq._meta },
    headers,
    requestId: ctx.mcpReq.id,
    protocolVersion: typeof version === 'string' ? version : MODERN,
    clientId: session.clientId,
    bot: session.bot,
  };
}
