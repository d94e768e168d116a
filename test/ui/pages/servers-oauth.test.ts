/**
 * The web UI's Authorize button (issue 23) in a real headless Chromium: a server waiting for
 * OAuth shows the button; it shows the authorization server and scopes, then a link that opens
 * the authorization server's own login and consent pages (oidc-provider's), whose redirect
 * comes back to the service's /oauth/callback; the SameSite=Strict session cookie comes along
 * after one same-origin hop, so the flow finishes in this UI session and the server connects.
 * With `UPDATE_SCREENSHOTS=1` it writes docs/ui/server-authorize.png and docs/ui/server-authorized.png.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthPair, startOAuthPair } from '../../support/oauth-servers.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;

describe('authorizing a server from the web UI', { timeout: 90_000 }, () => {
  let pair: OAuthPair;
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  beforeAll(async () => {
    pair = await startOAuthPair();
    svc = await startTestService({ mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } });
    await waitFor(async () => (await svc.server('linear'))?.state === 'needs_authorization', { what: 'waiting' });
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await pair?.close();
  });

  it('Authorize shows the scopes, opens the authorization server, and the server connects', async () => {
    await page.getByRole('button', { name: 'Authorize linear' }).first().click();
    await page.getByText(`${pair.issuer} asks for: mcp:tools`).first().waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'server-authorize.png') });
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Open the authorization page' }).first().click(),
    ]);
    // oidc-provider's own pages: sign in, then consent.
    await popup.locator('input[name="login"]').fill('alice');
    await popup.locator('input[name="password"]').fill('any');
    await popup.locator('button[type="submit"]').click();
    await popup.locator('button[type="submit"]').click();
    await popup.getByText('is authorized and connecting').waitFor();
    // Here the authorization server is on 127.0.0.1 too (the same site: ports do not count), so the
    // cookie came straight away; the hop a cross-site server needs is tested in oauth-ui-session.test.ts.
    expect(popup.url().startsWith(`${svc.service.url}/oauth/callback?`)).toBe(true);
    await waitFor(async () => (await svc.server('linear'))?.state === 'connected', { what: 'connected' });
    await page.getByText('connected').first().waitFor();
    if (SHOTS) await popup.screenshot({ path: join(SHOTS, 'server-authorized.png') });
    expect(pageErrors).toEqual([]);
  });
});
