/**
 * The response headers of one Streamable HTTP session (SPEC G1): built once its id is
 * known, not per request; and the protocol version a request's header names.
 * @module
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/** A session's headers: its id alone, an SSE answer's, a JSON answer's. */
export type McpHeaders = {
  readonly session: OutgoingHttpHeaders;
  readonly sse: OutgoingHttpHeaders;
  readonly json: OutgoingHttpHeaders;
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
  return { session, sse: { ...SSE_HEADERS, ...session }, json: { ...session, 'content-type': 'application/json' } };
}

/** The protocol version a request names in its `MCP-Protocol-Version` header (the spec's default without one). */
export function protocolVersionOf(req: IncomingMessage): string {
  const version = req.headers['mcp-protocol-version'];
  return typeof version === 'string' ? version : DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}
