/**
 * The response headers of one Streamable HTTP session (SPEC G1): built once its id is
 * known, not per request; and the protocol version a request's header names.
 * @module
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/**
 * A session's headers: its id alone, an SSE answer's, and a JSON answer's as name/value
 * pairs in one array, to which each answer appends its `content-length` (see {@link withLength}).
 */
export type McpHeaders = {
  readonly session: OutgoingHttpHeaders;
  readonly sse: OutgoingHttpHeaders;
  readonly json: readonly string[];
};

const SSE_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** The headers of session `sessionId` (none yet before initialize). */
export function mcpHeaders(sessionId: string | undefined): McpHeaders {
  const session: OutgoingHttpHeaders = sessionId === undefined ? {} : { 'mcp-session-id': sessionId };
  const json = sessionId === undefined ? [] : ['mcp-session-id', sessionId];
  return { session, sse: { ...SSE_HEADERS, ...session }, json: [...json, 'content-type', 'application/json'] };
}

/**
 * A JSON answer's headers with its length: a new array, not `{ ...headers, 'content-length' }`.
 * On Node 20's V8 a property added to an object made by spreading another gets a map of its
 * own, reachable only from weak transitions, which the young-generation collector keeps: such
 * an object, and everything it holds, outlives the request until the next full collection
 * (docs/adr/047-objects-young-collections-keep.md).
 */
export function withLength(pairs: readonly string[], length: number): string[] {
  return [...pairs, 'content-length', String(length)];
}

/** The protocol version a request names in its `MCP-Protocol-Version` header (the spec's default without one). */
export function protocolVersionOf(req: IncomingMessage): string {
  const version = req.headers['mcp-protocol-version'];
  return typeof version === 'string' ? version : DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}
