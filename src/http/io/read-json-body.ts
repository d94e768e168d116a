import type { IncomingMessage } from 'node:http';

/** A request body read as JSON: its value, or why there is none. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: 'too_large' | 'invalid_json' };

const TOO_LARGE: JsonBody = { ok: false, reason: 'too_large' };
const INVALID: JsonBody = { ok: false, reason: 'invalid_json' };

/**
 * Read `req`'s body and parse it as JSON, refusing more than `maxBytes` (SPEC X8): a declared
 * `Content-Length` over the limit is refused before anything is read, and a body without one
 * is refused as soon as the limit is passed. Rejects only when the request stream fails.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        // Nothing more is read: the response closes the connection instead.
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString('utf8');
      try {
        resolve({ ok: true, value: JSON.parse(text) });
      } catch {
        resolve(INVALID);
      }
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
