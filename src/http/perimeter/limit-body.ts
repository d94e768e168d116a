import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { closeAfterLinger } from '../io/index.js';
import { PERIMETER_ANSWERS } from './admit-request.js';

/**
 * Refuse a request body over `maxBytes()` (read per request: `http.maxBodyBytes` hot-reloads)
 * with the perimeter's 413 (X8), so that the client reads it: a declared length over the
 * limit was refused by the perimeter before the body is touched (`admit-request.ts`); one of
 * unknown length is refused here once it passes the limit, and the connection is closed after
 * a linger (`closeAfterLinger`), the rest unread. A request with no body passes on without its
 * `Content-Type`, so that a route whose body is optional takes it as absent.
 */
export function limitBody({ maxBytes }: { maxBytes: () => number }): MiddlewareHandler {
  return async function limitBody(c, next) {
    const max = maxBytes();
    const refuse = (ctx: Context) => {
      const node = ctx.env as Partial<HttpBindings> | undefined;
      if (node?.incoming && node.outgoing) closeAfterLinger(node.incoming, node.outgoing);
      const refused = PERIMETER_ANSWERS.tooLarge(max);
      return ctx.json(refused.api, refused.status, refused.headers);
    };
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
