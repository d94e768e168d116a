/**
 * The options of an agent session's Streamable HTTP transport (`mcp-transport.ts`).
 * @module
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createSseWriteGuard, type SseWriteGuard } from '../io/index.js';
import { answerUnwritable } from './answer-unwritable.js';
import type { Serialized } from './serialize-message.js';
import type { SessionRelay } from './session-relay.js';
import { createSseEventLog, type SseEventLog } from './sse-event-log.js';

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
  /** Cluster mode: the session's side of the fleet relay (`session-relay.ts`); absent: nothing crosses replicas. */
  relay?: SessionRelay;
};

/** The options a transport runs with: the given ones, and the defaults of the others. */
export type ResolvedTransportOptions = {
  readonly log: SseEventLog;
  readonly guard: SseWriteGuard;
  readonly onSessionInitialized: ((sessionId: string) => void) | undefined;
  readonly onSessionClosed: (() => void) | undefined;
  readonly newSessionId: () => string;
  readonly maxBodyBytes: number;
  readonly keepAliveMs: number;
  readonly retryMs: number;
  readonly now: () => number;
  readonly serialize: (message: JSONRPCMessage) => Serialized;
};

/** Fill in the defaults of `options`. */
export function resolveTransportOptions(options: McpHttpTransportOptions): ResolvedTransportOptions {
  return {
    log: options.eventLog ?? createSseEventLog(),
    guard: options.writeGuard ?? createSseWriteGuard(),
    onSessionInitialized: options.onSessionInitialized,
    onSessionClosed: options.onSessionClosed,
    newSessionId: options.newSessionId ?? (() => crypto.randomUUID()),
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    retryMs: options.retryMs ?? 1_000,
    now: options.now ?? Date.now,
    // A response that cannot be written answers -32603 rather than leave its request open.
    serialize: answerUnwritable(options.serialize ?? JSON.stringify),
  };
}
