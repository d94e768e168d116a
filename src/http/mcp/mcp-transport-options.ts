/**
 * The options of an agent session's Streamable HTTP transport (`mcp-transport.ts`).
 * @module
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SseWriteGuard } from '../io/index.js';
import type { Serialized } from './serialize-message.js';
import type { SseEventLog } from './sse-event-log.js';

/** Options of `McpHttpTransport`. */
export type McpHttpTransportOptions = {
  /** Called once, with the new session's id, when an initialize request is accepted. */
  onSessionInitialized?: (sessionId: string) => void;
  /** Called once when it closes (a DELETE, or the gateway ending the session): its opener forgets it. */
  onSessionClosed?: () => void;
  newSessionId?: () => string;
  /** Largest request body accepted (413 above it). Default 4 MiB. */
  maxBodyBytes?: number;
  /** How often a quiet SSE stream gets a keep-alive comment; a JSON answer this late becomes a stream. */
  keepAliveMs?: number;
  /** The `retry:` advice sent with a priming event. */
  retryMs?: number;
  eventLog?: SseEventLog;
  /** The bound on a stream's unsent bytes (X8); default: 1 MiB, not counted anywhere. */
  writeGuard?: SseWriteGuard;
  /** How messages become JSON; an endpoint shares one among its sessions. */
  serialize?: (message: JSONRPCMessage) => Serialized;
  now?: () => number;
};
