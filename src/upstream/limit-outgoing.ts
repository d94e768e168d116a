/**
 * The size limit on what is sent to an upstream (SPEC X8): a message over the server's
 * `maxMessageBytes` is refused before it is written, so an agent's huge argument fails
 * that one request with a clear error instead of reaching a stdio server that would drop
 * the line (and the connection every agent shares).
 * @module
 */
import { UpstreamMessageTooLargeError } from '../errors.js';

/** The bound on what one server is sent: its name (for the error) and `maxMessageBytes`. */
export type OutgoingLimit = { readonly server: string; readonly maxBytes: number };

/**
 * The refusal of `json`, a message as its transport writes it (serialized once, by that
 * transport: issue 20), when it is over `limit.maxBytes` in UTF-8; null when it may go. Our
 * transports call it from their own `send` ({@link ChildStdioTransport}, {@link RemoteTransport}).
 */
export function limitOutgoing(json: string, { server, maxBytes }: OutgoingLimit): UpstreamMessageTooLargeError | null {
  // UTF-8 is at least one byte per UTF-16 unit and at most three: count only when in doubt.
  if (json.length * 3 <= maxBytes) return null;
  const bytes = Buffer.byteLength(json);
  return bytes > maxBytes ? new UpstreamMessageTooLargeError(server, bytes, maxBytes) : null;
}
