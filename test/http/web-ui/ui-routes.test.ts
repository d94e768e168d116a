/**
 * The web UI's routes over real HTTP on a real service (SPEC A3, X1, X2): the page and its
 * files from the package, the one-time sign-in link, the admin-token sign-in, the session
 * cookie as a way into /api and /api/events, the CSRF and Origin locks on cookie writes,
 * sign-out, and sessions that end with the service.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/package-root.js';
import { openSse } from '../../support/sse-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';

describe('the web UI routes', () => {
  let svc: TestService;
  let origin: string;
  let cookieName: string;
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {} });
    origin = svc.service.url;
    cookieName = `bnity_session_${svc.service.port}`;
  });
  afterAll(() => svc?.stop());

  /** A request carrying the session cookie. */
  const withCookie = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${origin}${path}`, { ...init, headers: { cookie: `${cookieName}=${cookie}`, ...init.headers } });
  const errorOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error;

  it('serves the page and its hashed files from the package: no CDN, a strict CSP, gzip when asked', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const script = /<script type="module" src="(\/ui\/assets\/app\.[A-Z2-7]{8}\.js)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="(\/ui\/assets\/style\.[A-Z2-7]{8}\.css)">/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    expect(style, html).toBeDefined();
    const js = await fetch(`${origin}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${origin}${style}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const missing = await fetch(`${origin}/ui/assets/nothing.js`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${origin}/ui/assets/..%2Fpackage.json`)).status).toBe(404);
    // The names without a hash are gone: a page can only name what it was built with.
    expect((await fetch(`${origin}/ui/assets/app.js`)).status).toBe(404);
    // A chunk or a page's file is served by the name the build gave it, and no other.
    expect((await fetch(`${origin}/ui/assets/bot-page.js`)).status).toBe(404);
    expect((await fetch(`${origin}/ui/assets/chunk.AAAAAAAA.js`)).status).toBe(404);
  });

  it('caches the hashed files for good and revalidates the page by its ETag (a warm reload is one 304)', async () => {
    const page = await fetch(`${origin}/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    const named = [...(await page.text()).matchAll(/"\/ui\/assets\/([^"]+)"/g)].map((m) => m[1]);
    // The script, the style sheet and the chunks the script imports (preloaded).
    expect(named.filter((n) => /^chunk\.[A-Z2-7]{8}\.js$/.test(n ?? '')).length).toBe(named.length - 2);
    // And every page loaded on demand (ADR 027): the build's own files, no other.
    const built = readdirSync(join(packageRoot(), 'dist', 'ui')).filter((n) => n !== 'index.html');
    expect(built.filter((n) => /^[a-z-]+-page\.[A-Z2-7]{8}\.js$/.test(n)).length).toBeGreaterThan(5);
    const names = [...new Set([...named, ...built])];
    // Plain and gzip are the same page: one ETag for both.
    expect((await fetch(`${origin}/`, { headers: { 'accept-encoding': 'identity' } })).headers.get('etag')).toBe(etag);
    const again = await fetch(`${origin}/`, { headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-encoding')).toBeNull();
    // The security headers stay on the 304 (a cache refreshes the stored ones from it).
    expect(again.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const listed of [`"other", ${etag}`, etag.slice(2), '*'])
      expect((await fetch(`${origin}/`, { headers: { 'if-none-match': listed } })).status, listed).toBe(304);
    const stale = await fetch(`${origin}/`, { headers: { 'if-none-match': 'W/"an-older-build"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toContain('/ui/assets/');
    for (const name of names) {
      const asset = await fetch(`${origin}/ui/assets/${name}`);
      expect(asset.status, name).toBe(200);
      expect(asset.headers.get('cache-control'), name).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('x-content-type-options'), name).toBe('nosniff');
      const tag = asset.headers.get('etag') ?? '';
      expect(tag, name).toMatch(/^W\/"[\w-]{22}"$/);
      expect(tag, name).not.toBe(etag);
      expect((await fetch(`${origin}/ui/assets/${name}`, { headers: { 'if-none-match': tag } })).status, name).toBe(
        304,
      );
    }
  });

  it('the one-time link sets an HttpOnly, SameSite=Strict cookie and redirects the code out of the URL', async () => {
    const link = svc.service.signInUrl ?? '';
    expect(link).toMatch(new RegExp(`^${origin}/ui/sign-in\\?code=[\\w-]{43}$`));
    const answer = await fetch(link, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const set = answer.headers.get('set-cookie') ?? '';
    expect(set).toMatch(new RegExp(`^${cookieName}=[\\w-]{43}; Path=/; HttpOnly; SameSite=Strict$`));
    cookie = /=([\w-]+);/.exec(set)?.[1] ?? '';
    const session = await withCookie('/ui/session');
    expect(session.status).toBe(200);
    csrf = ((await session.json()) as { csrfToken: string }).csrfToken;
    expect(csrf).toMatch(/^[\w-]{43}$/);
  });

  it('a link works once: used again, or made up, it leads to the sign-in page with no cookie', async () => {
    for (const link of [svc.service.signInUrl ?? '', `${origin}/ui/sign-in?code=made-up`, `${origin}/ui/sign-in`]) {
      const answer = await fetch(link, { redirect: 'manual' });
      expect(answer.status, link).toBe(303);
      expect(answer.headers.get('location')).toBe('/#/sign-in/link-refused');
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  it('the cookie opens /api and /api/events as the admin token does', async () => {
    const servers = await withCookie('/api/servers');
    expect(servers.status).toBe(200);
    expect(await servers.json()).toEqual({ servers: [] });
    const events = await openSse(`${origin}/api/events`, { cookie: `${cookieName}=${cookie}` });
    try {
      expect((await events.next((e) => e.event === 'snapshot')).data).toEqual({
        type: 'snapshot',
        server: null,
        servers: [],
        replica: expect.any(String),
      });
    } finally {
      await events.close();
    }
    // Not /mcp: agents use tokens.
    expect((await withCookie('/mcp', { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('a write with the cookie needs the CSRF token and an allowed Origin', async () => {
    const body = JSON.stringify({ name: 'from-the-ui' });
    const json = { 'content-type': 'application/json' };
    const bare = await withCookie('/api/tokens', { method: 'POST', body, headers: { ...json, origin } });
    expect(bare.status).toBe(403);
    expect((await errorOf(bare)).message).toBe(
      "a write with the session cookie needs the session's x-csrf-token header",
    );
    const wrong = await withCookie('/api/tokens', {
      method: 'POST',
      body,
      headers: { ...json, origin, 'x-csrf-token': `${csrf}x` },
    });
    expect(wrong.status).toBe(403);
    const noOrigin = await withCookie('/api/tokens', {
      method: 'POST',
      body,
      headers: { ...json, 'x-csrf-token': csrf },
    });
    expect(noOrigin.status).toBe(403);
    expect((await errorOf(noOrigin)).message).toBe('a write with the session cookie needs an Origin header');
    const foreign = await withCookie('/api/tokens', {
      method: 'POST',
      body,
      headers: { ...json, origin: 'https://evil.example', 'x-csrf-token': csrf },
    });
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).message).toBe('origin "https://evil.example" is not allowed');
    // Nothing was made by the refused requests; the right one makes one token.
    const made = await withCookie('/api/tokens', {
      method: 'POST',
      body,
      headers: { ...json, origin, 'x-csrf-token': csrf },
    });
    expect(made.status).toBe(201);
    const { body: listed } = await svc.api<{ tokens: { name: string }[] }>('/api/tokens');
    expect(listed.tokens.map((t) => t.name)).toEqual(['from-the-ui']);
  });

  it('a bearer header decides over the cookie; an unknown cookie is told to sign in again', async () => {
    const wrongBearer = await withCookie('/api/servers', { headers: { authorization: 'Bearer nope' } });
    expect(wrongBearer.status).toBe(401);
    expect((await errorOf(wrongBearer)).message).toBe('invalid bearer token');
    const stale = await fetch(`${origin}/api/servers`, { headers: { cookie: `${cookieName}=not-a-session` } });
    expect(stale.status).toBe(401);
    expect((await errorOf(stale)).message).toBe('the web UI session has ended: sign in again');
    // Another port's cookie is not this service's.
    const other = await fetch(`${origin}/api/servers`, { headers: { cookie: `bnity_session_1=${cookie}` } });
    expect((await errorOf(other)).message).toBe('missing bearer token');
  });

  it('signs in with the admin token, and refuses anything else in one line', async () => {
    const post = (body: string) =>
      fetch(`${origin}/ui/sign-in`, { method: 'POST', body, headers: { 'content-type': 'application/json', origin } });
    for (const body of ['{"token":"wrong"}', '{}', 'not json', '{"token":42}']) {
      const refused = await post(body);
      expect(refused.status, body).toBe(401);
      expect(await refused.json()).toEqual({ error: { code: 'unauthorized', message: 'that is not the admin token' } });
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    const tooBig = await post(JSON.stringify({ token: 'x'.repeat(10_000) }));
    expect(tooBig.status).toBe(413);
    const ok = await post(JSON.stringify({ token: TEST_TOKEN }));
    expect(ok.status).toBe(200);
    expect((await ok.json()) as object).toEqual({ csrfToken: expect.stringMatching(/^[\w-]{43}$/) });
    expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const foreign = await fetch(`${origin}/ui/sign-in`, {
      method: 'POST',
      body: JSON.stringify({ token: TEST_TOKEN }),
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });

  it('sign-out needs the CSRF token, ends the session and clears the cookie', async () => {
    const refused = await withCookie('/ui/sign-out', { method: 'POST', headers: { origin } });
    expect(refused.status).toBe(403);
    expect((await withCookie('/api/servers')).status).toBe(200);
    const out = await withCookie('/ui/sign-out', { method: 'POST', headers: { origin, 'x-csrf-token': csrf } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${cookieName}=; Max-Age=0; Path=/`));
    expect((await withCookie('/api/servers')).status).toBe(401);
    expect((await withCookie('/ui/session')).status).toBe(401);
    expect((await withCookie('/ui/sign-out', { method: 'POST', headers: { origin } })).status).toBe(401);
  });

  it('sessions end when the service stops: a new run refuses the old cookie and prints a new link', async () => {
    const home = svc.home;
    const answer = await fetch(`${origin}/ui/sign-in`, {
      method: 'POST',
      body: JSON.stringify({ token: TEST_TOKEN }),
      headers: { 'content-type': 'application/json' },
    });
    const old = /=([\w-]+);/.exec(answer.headers.get('set-cookie') ?? '')?.[1] ?? '';
    await svc.service.stop('restart');
    const again = await startTestService({ mcpServers: {} }, { home });
    try {
      const name = `bnity_session_${again.service.port}`;
      const refused = await fetch(`${again.service.url}/api/servers`, { headers: { cookie: `${name}=${old}` } });
      expect(refused.status).toBe(401);
      expect(again.service.signInUrl).not.toBe(svc.service.signInUrl);
    } finally {
      await again.stop();
    }
  });
});
