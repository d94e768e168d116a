import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { closeAfterLinger } from './close-after-linger.js';

/**
 * Refuse a request body over `maxBytes()` (read per request: `http.maxBodyBytes` hot-reloads)
 * with 413 (X8), so that the client reads it: a declared length over the limit is refused
 * before the body is touched (reading it through a web stream and giving up resets the
 * connection under the client), and the connection is closed after a linger
 * (`closeAfterLinger`), the rest unread. A request with no body passes on without its
 * `Content-Type`, so that a route whose body is optional takes it as absent.
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
    // No body at all: a route whose body is optional takes it as absent, whatever the
    // Content-Type says (the validator would try to parse the empty text as JSON).
    if (isEmpty(c)) c.req.raw.headers.delete('content-type');
    return bodyLimit({ maxSize: max, onError: refuse })(c, next);
  };
}

/** Whether a request carries no body: `Content-Length: 0`, or neither it nor `Transfer-Encoding`. */
const isEmpty = (c: Context): boolean => {
  const length = c.req.header('content-length');
  return length === undefined ? c.req.header('transfer-encoding') === undefined : Number(length) === 0;
};
