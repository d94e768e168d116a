/**
 * An authorization started from the web UI (issue 23) is bound to that UI session: the
 * authorization server's redirect (which a SameSite=Strict cookie does not follow) gets one
 * same-origin hop, and the callback finishes the flow only with the session that started it.
 * And the client ID metadata document boternity serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approve, type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

let pair: OAuthPair;
let svc: TestService;

beforeAll(async () => {
  pair = await startOAuthPair();
  svc = await startTestService({ mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } });
  await waitFor(async () => (await svc.server('linear'))?.state === 'needs_authorization', { what: 'waiting' });
});
afterAll(async () => {
  await svc?.stop();
  await pair?.close();
});

/** A signed-in web UI session: its cookie and CSRF token. */
async function signIn() {
  const origin = svc.service.url;
  const response = await fetch(`${origin}/ui/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ token: TEST_TOKEN }),
  });
  expect(response.status).toBe(200);
  const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { cookie, csrfToken, origin };
}

describe('an authorization started in the web UI', () => {
  it('finishes only in that UI session, after one same-origin hop', async () => {
    const mine = await signIn();
    const other = await signIn();
    const started = await fetch(`${mine.origin}/api/servers/linear/authorize`, {
      method: 'POST',
      headers: { cookie: mine.cookie, 'x-csrf-token': mine.csrfToken, origin: mine.origin },
    });
    expect(started.status).toBe(200);
    const { url, scopes } = (await started.json()) as { url: string; scopes: string[] };
    expect(scopes).toEqual(['mcp:tools']);
    const redirect = await approve(url);

    // Straight from the authorization server: no cookie. One hop on the service's own origin.
    const hop = await fetch(redirect);
    expect(hop.status).toBe(200);
    const refresh = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(await hop.text())?.[1]?.replace(/&#38;/g, '&');
    expect(refresh).toMatch(/^\/oauth\/callback\?.*same_site=1/);
    const again = `${mine.origin}${refresh}`;
    // Without the session, or with another one: refused, and the flow is still there.
    for (const cookie of [undefined, other.cookie]) {
      const refused = await fetch(again, cookie ? { headers: { cookie } } : {});
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('this authorization was started by another session');
    }
    expect((await svc.server('linear'))?.state).toBe('needs_authorization');
    const done = await fetch(again, { headers: { cookie: mine.cookie } });
    expect(done.status).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    await waitFor(async () => (await svc.server('linear'))?.state === 'connected', { what: 'connected' });
  });

  it('serves the client ID metadata document with the exact redirect URI', async () => {
    const response = await fetch(`${svc.service.url}/oauth/client-metadata.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      client_id: `${svc.service.url}/oauth/client-metadata.json`,
      client_name: 'boternity',
      redirect_uris: [`${svc.service.url}/oauth/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    });
  });
});
