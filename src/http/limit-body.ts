import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Refuse a request body over `maxBytes()` (read per request: `http.maxBodyBytes` hot-reloads) with 413 (X8). */
export function limitBody({ maxBytes }: { maxBytes: () => number }): MiddlewareHandler {
  return async function limitBody(c, next) {
    const max = maxBytes();
    const limit = bodyLimit({
      maxSize: max,
      // The unread rest of the body is still on the connection: close it rather than reuse it.
      onError: (ctx) =>
        ctx.json(
          { error: { code: 'payload_too_large', message: `request body over ${max} bytes (http.maxBodyBytes)` } },
          413,
          { connection: 'close' },
        ),
    });
    return limit(c, next);
  };
}
