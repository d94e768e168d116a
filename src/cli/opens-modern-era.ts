/**
 * Which protocol era a stdio client opens with (ADR 013), read from its first message alone:
 * kept free of the v2 SDK so the 2025 bridge loads none of it.
 * @module
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The `_meta` key of the MCP 2026-07-28 per-request envelope that claims a revision. */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** A message's `_meta`, if it has one. */
export function metaOf(message: JSONRPCMessage): Record<string, unknown> | undefined {
  return 'method' in message ? (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta : undefined;
}

/** Whether a connection's first message opens the 2026-07-28 era: `server/discover`, or a request with the envelope. */
export function opensModernEra(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  return message.method === 'server/discover' || typeof metaOf(message)?.[PROTOCOL_VERSION_META_KEY] === 'string';
}
