/**
 * The two OAuth pages on the service's own origin (issue 23), outside `/api` and without a
 * token (an authorization server redirects a browser here; another fetches the document):
 * `GET /oauth/callback`, which finishes the authorization its `state` names (a flow started
 * from the web UI only in that same UI session), and `GET /oauth/client-metadata.json`,
 * boternity's client ID metadata document. The page says what happened in one line; it
 * carries no token and no code.
 * @module
 */
import { Hono } from 'hono';
import { HubError } from '../errors.js';
import type { OAuth } from '../oauth/index.js';
import { redirectOf, uiOwnerOf } from './api/index.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const page = (title: string, line: string) =>
  `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
  `<body style="font-family:system-ui;margin:3em"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(line)}</p></body>`;

/** Routes mounted at `/oauth`. */
export function oauthPages({
  oauth,
  cookieName,
}: {
  oauth: Pick<OAuth, 'flows' | 'clientMetadata'>;
  cookieName?: (() => string) | undefined;
}): Hono {
  const pages = new Hono();
  // Nothing here may be framed, cached or leak the code through a Referer.
  pages.use('*', async (c, next) => {
    await next();
    c.header('cache-control', 'no-store');
    c.header('x-frame-options', 'DENY');
    c.header('referrer-policy', 'no-referrer');
  });
  pages.get('/callback', async (c) => {
    const query = new URL(c.req.url).searchParams;
    const redirect = redirectOf(query);
    const ui = uiOwnerOf(c, cookieName);
    // The UI's cookie is SameSite=Strict: the authorization server's redirect (another site) comes
    // without it. One same-origin hop more brings it, so a UI flow is finished in its own session.
    if (ui === null && !query.has('same_site') && redirect.state && (await oauth.flows.startedInUi(redirect.state))) {
      query.set('same_site', '1');
      const next = `/oauth/callback?${query}`;
      return c.html(
        `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${escapeHtml(next)}"><title>boternity</title><p>Finishing the authorization…</p>`,
        200,
      );
    }
    try {
      const { server } = await oauth.flows.finish(redirect, { kind: 'browser', ui });
      return c.html(
        page('boternity: authorized', `"${server}" is authorized and connecting. You can close this tab.`),
        200,
      );
    } catch (error) {
      const status = error instanceof HubError && error.code === 'forbidden' ? 403 : 400;
      const line = error instanceof Error ? error.message : String(error);
      return c.html(page('boternity: not authorized', line), status);
    }
  });
  pages.get('/client-metadata.json', async (c) => c.json(await oauth.clientMetadata(), 200));
  return pages;
}
