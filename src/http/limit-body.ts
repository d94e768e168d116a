import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { closeAfterLinger } from './close-after-linger.js';

/**
 * Refuse a request body over `maxBytes()` (read per request: `http.maxBodyBytes` hot-reloads)
 * with 413 (X8), so that the client reads it: a declared length over the limit is refused
 * before the body is touched (reading it through a web stream and giving up resets the
 * connection under the client), and the connection is closed after a linger
 * (`closeAfterLinger`), the rest unread.
 */
export function limitBody({ maxBytes }: { maxBytes: () => number }): MiddlewareHandler {
  return async function limitBody(c, next) {
    const max = maxBytes();
    const refuse = (ctx: Context) => {
      const node = ctx.env as Partial<HttpBindings> | undefined;
      if (node?.incoming && node.outgoing) closeAfterLinger(node.incoming, node.outgoing);
      return ctx.json(
        { error: { code: 'payload_too_large', message: `request body over ${max} bytes (http.maxBodyBytes)` } },
        413,
      );
    };
    if (Number(c.req.header('content-length')) > max) return refuse(c);
    return bodyLimit({ maxSize: max, onError: refuse })(c, next);
  };
}
