/**
 * Closing the connection of a request refused before its body was read (issue 18: an
 * oversized POST), so that its client reads the refusal. Closing a socket with unread data
 * resets it, and a client still sending then loses the answer it has not read yet (`EPIPE`):
 * so the refusal is followed by our end of the connection only (FIN), and the socket is
 * destroyed {@link LINGER_MS} later. Nothing more of the body is read meanwhile: the client's
 * upload stalls once the buffers are full.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long the connection stays half-open after the refusal. */
export const LINGER_MS = 2_000;

/** Once `res` is written, end our side of `req`'s connection and destroy it `lingerMs` later. */
export function closeAfterLinger(req: IncomingMessage, res: ServerResponse, lingerMs = LINGER_MS): void {
  if (req.complete) return;
  const close = () => {
    const { socket } = req;
    if (socket.destroyed) return;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
  if (res.writableFinished) close();
  else res.once('finish', close);
}
