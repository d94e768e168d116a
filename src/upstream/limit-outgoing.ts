/**
 * The size limit on what is sent to an upstream (SPEC X8): a message over the server's
 * `maxMessageBytes` is refused before it is written, so an agent's huge argument fails
 * that one request with a clear error instead of reaching a stdio server that would drop
 * the line (and the connection every agent shares).
 * @module
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { UpstreamMessageTooLargeError } from '../errors.js';

/** Refuse, on `transport` (not yet started), any message over `maxBytes` as JSON. */
export function limitOutgoing(transport: Transport, { server, maxBytes }: { server: string; maxBytes: number }): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch {
      // Not serializable at all (nested too deeply): the transport's own send says how.
      return send(message, options);
    }
    // UTF-8 is at least one byte per UTF-16 unit and at most three: count only when in doubt.
    const over = text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes);
    if (over) return Promise.reject(new UpstreamMessageTooLargeError(server, Buffer.byteLength(text), maxBytes));
    return send(message, options);
  };
}
