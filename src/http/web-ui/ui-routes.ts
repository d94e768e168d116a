/**
 * The web UI (SPEC A3): the page at `/` and its files under `/ui/assets/`, served from the
 * package (no CDN): the files, named by their content's hash, cached for good; the page
 * revalidated by its ETag, so a reload with a warm cache is one 304. And its sign-in:
 * `GET /ui/sign-in?code=…` (the link `bnity serve` prints) spends the one-time code, sets
 * the session cookie (`HttpOnly`, `SameSite=Strict`) and redirects to `/`, so the code leaves
 * the address bar; `POST /ui/sign-in` with the admin token does the same for a pasted token. The page and its files hold no data and need no
 * session; everything it shows comes from `/api` with the cookie (`admit-request.ts`).
 * @module
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sameSecret } from '../../guard/same-secret.js';
import { matchesEtag } from '../io/index.js';
import { CSRF_HEADER } from '../perimeter/index.js';
import type { UiSession, UiSessions } from '../perimeter/ui-sessions.js';
import type { UiAssets } from './ui-assets.js';

/** What the UI routes need. */
export type UiRoutesDeps = {
  sessions: UiSessions;
  assets: UiAssets;
  adminToken: string;
  /** The session cookie's name (see `admit-request.ts`). */
  cookieName: () => string;
  /** A new one-time sign-in link on a base URL (`create-web-ui.ts`); absent: none is made here. */
  newSignInLink?: (baseUrl: string) => { url: string; expiresAt: number };
};

/** Where the UI sends a browser whose sign-in link was spent or wrong (a route of the page, no secret). */
export const LINK_REFUSED_PATH = '/#/sign-in/link-refused';

// The page runs only its own script and style, talks only to this origin, and is never framed.
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
});

// A file whose name is its content's hash never changes: the browser keeps it a year without
// asking. Anything else (the page, which names them) is asked again each time, and its ETag
// makes that answer a 304 of a few hundred bytes when nothing changed.
const CACHE_FOR_GOOD = 'public, max-age=31536000, immutable';
const ASK_AGAIN = 'no-cache';

const unauthorized = (c: Context, message: string) => c.json({ error: { code: 'unauthorized', message } }, 401);

/** The UI's routes, mounted at `/`. */
export function uiRoutes({ sessions, assets, adminToken, cookieName, newSignInLink }: UiRoutesDeps): Hono {
  const routes = new Hono();
  const serve = (c: Context, name: string) => {
    const asset = assets.get(name);
    if (!asset) {
      if (name === 'index.html' || !assets.built())
        return c.json({ error: { code: 'not_found', message: 'the web UI is not built: run npm run build' } }, 404);
      return c.json({ error: { code: 'not_found', message: `no UI file ${name}` } }, 404);
    }
    const headers: Record<string, string> = {
      ...PAGE_HEADERS,
      'cache-control': asset.immutable ? CACHE_FOR_GOOD : ASK_AGAIN,
      etag: asset.etag,
      vary: 'accept-encoding',
    };
    if (matchesEtag(c.req.header('if-none-match'), asset.etag)) return c.body(null, 304, headers);
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    headers['content-type'] = asset.type;
    if (gzip) headers['content-encoding'] = 'gzip';
    return c.body(gzip ? asset.gzip : asset.body, 200, headers);
  };
  const signedIn = (c: Context, session: UiSession) => {
    setCookie(c, cookieName(), session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: new URL(c.req.url).protocol === 'https:',
    });
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
  };
  const current = (c: Context): UiSession | null => {
    const id = getCookie(c, cookieName());
    return id === undefined ? null : sessions.find(id);
  };

  routes.get('/', (c) => serve(c, 'index.html'));
  routes.get('/ui/assets/:file', (c) => serve(c, c.req.param('file')));

  routes.get('/ui/sign-in', (c) => {
    const code = c.req.query('code');
    const session = code ? sessions.redeem(code) : null;
    if (session) signedIn(c, session);
    else c.header('cache-control', 'no-store');
    return c.redirect(session ? '/' : LINK_REFUSED_PATH, 303);
  });
  // A new one-time link (`bnity ui`), for the admin token only: the start's link was used,
  // lost or expired. Built on the address the request came to.
  routes.post('/ui/sign-in-link', (c) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer || !sameSecret(bearer, adminToken)) return unauthorized(c, 'a new sign-in link needs the admin token');
    if (!newSignInLink) return c.json({ error: { code: 'not_found', message: 'no sign-in links here' } }, 404);
    const { url, expiresAt } = newSignInLink(new URL(c.req.url).origin);
    c.header('cache-control', 'no-store');
    return c.json({ url, expiresAt: new Date(expiresAt).toISOString() }, 201);
  });
  routes.post('/ui/sign-in', bodyLimit({ maxSize: 4096 }), async (c) => {
    const body = (await c.req.json().catch(() => null)) as { token?: unknown } | null;
    const token = typeof body?.token === 'string' ? body.token.trim() : '';
    if (!token || !sameSecret(token, adminToken)) return unauthorized(c, 'that is not the admin token');
    const session = sessions.open();
    signedIn(c, session);
    return c.json({ csrfToken: session.csrfToken }, 200);
  });
  // The page asks this on load: signed in (and with which CSRF token), or not.
  routes.get('/ui/session', (c) => {
    const session = current(c);
    c.header('cache-control', 'no-store');
    if (!session) return unauthorized(c, 'not signed in');
    return c.json({ csrfToken: session.csrfToken }, 200);
  });
  routes.post('/ui/sign-out', (c) => {
    const session = current(c);
    if (!session) return unauthorized(c, 'not signed in');
    const token = c.req.header(CSRF_HEADER);
    if (token === undefined || !sameSecret(token, session.csrfToken))
      return c.json(
        { error: { code: 'forbidden', message: `sign-out needs the session's ${CSRF_HEADER} header` } },
        403,
      );
    sessions.end(session.id);
    deleteCookie(c, cookieName(), { path: '/' });
    return c.body(null, 204);
  });
  return routes;
}
