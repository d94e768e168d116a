/**
 * The kind of a JSON-RPC message already checked (by {@link parseMessage}, or by the SDK's
 * transport that read it) or built by the SDK itself, told by its keys. The SDK's four
 * message schemas are strict, so a checked message has exactly its kind's keys, and asking
 * the SDK's `isJSONRPCRequest`/`isJSONRPCResultResponse` again (a zod parse each, a failing
 * one building its issues) answers the same at a cost: our transports asked up to three
 * times per message (issue 20).
 * @module
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What a JSON-RPC message is. */
export type MessageKind = 'request' | 'notification' | 'result' | 'error';

/** The kind of a checked `message` (a request has `method` and `id`, a notification `method` alone). */
export function messageKind(message: JSONRPCMessage): MessageKind {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  return 'result' in message ? 'result' : 'error';
}
