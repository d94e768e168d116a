/**
 * An ETag on the API's JSON answers to GET, from their bytes, and `304 Not Modified` when the
 * client already has them (`If-None-Match`): the web UI's pages ask for `/api/presets`, the
 * catalogs and the audit on every visit, and the browser, which keeps what it was sent,
 * then gets a few hundred bytes of headers instead of the same JSON again. `Cache-Control:
 * private, no-cache` (unless the route set its own): the browser asks each time, so what it
 * shows is never stale, and no shared cache keeps an answer given to a token.
 * @module
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { matchesEtag } from './io/index.js';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** Tag 200 JSON answers to GET; answer 304 to a request that names the tag. */
export function tagJson(): MiddlewareHandler {
  return async function tagJson(c, next) {
    await next();
    const res = c.res;
    if (c.req.method !== 'GET' || res.status !== 200 || !res.body) return;
    if (!JSON_TYPE.test(res.headers.get('content-type') ?? '') || res.headers.has('etag')) return;
    if (/\bno-store\b/i.test(res.headers.get('cache-control') ?? '')) return;
    const body = new Uint8Array(await res.arrayBuffer());
    // Weak: the same JSON compressed (compress-json.ts) is the same answer.
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const headers = new Headers(res.headers);
    headers.set('etag', etag);
    if (!headers.has('cache-control')) headers.set('cache-control', 'private, no-cache');
    const unchanged = matchesEtag(c.req.header('if-none-match'), etag);
    if (unchanged) {
      headers.delete('content-type');
      headers.delete('content-length');
    }
    // Cleared first: Hono's setter would copy the old answer's headers over the new one's.
    c.res = undefined;
    c.res = unchanged ? new Response(null, { status: 304, headers }) : new Response(body, { status: 200, headers });
  };
}
