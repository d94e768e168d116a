/**
 * An answer that cannot be written still answers its request. `JSON.stringify` throws on a
 * value nested a few thousand levels deep (a hostile server's `_meta`) or holding a BigInt;
 * thrown inside `transport.send`, the SDK only calls `onerror`: no response would be sent, a
 * JSON answer's HTTP response would never end and the agent would wait for ever. Instead the
 * request gets `-32603` naming why, and the session goes on.
 * @module
 */
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Serialized } from './serialize-message.js';

/** `serialize`, with a response it cannot write replaced by a -32603 error for the same id. */
export function answerUnwritable(
  serialize: (message: JSONRPCMessage) => Serialized,
): (message: JSONRPCMessage) => Serialized {
  return (message) => {
    try {
      return serialize(message);
    } catch (error) {
      // A request or a notification has no one waiting on an answer: the caller's onerror says it.
      if (!('id' in message) || !('result' in message || 'error' in message)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ErrorCode.InternalError, message: `the answer could not be written: ${reason.slice(0, 200)}` },
      });
    }
  };
}
