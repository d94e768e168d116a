/**
 * The web UI's Authorize button (issue 23) in a real headless Chromium: a server waiting for
 * OAuth shows the button; it shows the authorization server and scopes, then a link that opens
 * the authorization server's own login and consent pages (oidc-provider's), whose redirect
 * comes back to the service's /oauth/callback; the SameSite=Strict session cookie comes along
 * after one same-origin hop, so the flow finishes in this UI session and the server connects.
 * With `UPDATE_SCREENSHOTS=1` it writes docs/ui/server-authorize.png and docs/ui/server-authorized.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WCAG_22_AA } from '../../support/axe-run.js';
import { approve, type OAuthPair, startOAuthPair } from '../../support/oauth-servers.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const AXE = fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url));
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
  const state = async () => (await svc.server('linear'))?.state;
  const commands = () => page.locator('div.commands');
  /** The link of the authorization just started on the server's page. */
  const startedUrl = async () => {
    const link = commands().getByRole('link', { name: 'Open the authorization page' });
    await link.waitFor();
    return (await link.getAttribute('href')) as string;
  };

  it("Revoke authorization on the server's page forgets the tokens: the server waits for an authorization again", async () => {
    await page.evaluate(`location.hash = '#/servers/linear'`);
    await page.locator('p.summary[data-state="connected"]').waitFor();
    await commands().getByRole('button', { name: 'Re-authorize linear' }).waitFor();
    await commands().getByRole('button', { name: 'Revoke authorization' }).click();
    await commands().getByRole('button', { name: 'Revoke the authorization of linear?' }).click();
    await commands().getByRole('status').filter({ hasText: 'Authorization of linear' }).waitFor();
    await waitFor(async () => (await state()) === 'needs_authorization', { what: 'needs_authorization' });
    await page.locator('p.summary[data-state="needs_authorization"]').waitFor();
  });

  it('finishes an authorization with the address the browser ended on, pasted back; a bad one is refused in one line', async () => {
    await commands().getByRole('button', { name: 'Authorize linear' }).click();
    const url = await startedUrl();
    const box = commands().getByLabel('Or paste the address you ended on');
    await box.fill('not an address');
    await commands().getByRole('button', { name: 'Finish authorization' }).click();
    const error = page.locator('#paste-linear-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('not an address: paste the whole address the browser ended on (http://…)');
    expect(await box.getAttribute('aria-describedby')).toContain('paste-linear-error');
    expect(await box.inputValue()).toBe('not an address');
    await page.evaluate(await readFile(AXE, 'utf8'));
    const violations = await page.evaluate(
      `axe.run(document, { runOnly: ${JSON.stringify(WCAG_22_AA)} }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
    );
    expect(violations).toEqual([]);
    // The browser never reached the service's callback: its address is pasted here instead.
    await box.fill(await approve(url));
    await commands().getByRole('button', { name: 'Finish authorization' }).click();
    await commands().getByRole('status').filter({ hasText: 'linear is authorized and connecting.' }).waitFor();
    await waitFor(async () => (await state()) === 'connected', { what: 'connected', timeoutMs: 20_000 });
    await page.locator('p.summary[data-state="connected"]').waitFor();
  });

  it('Re-authorize a connected server: a new grant, pasted back, and it stays connected', async () => {
    const before = (await svc.server('linear'))?.connectedAt;
    await commands().getByRole('button', { name: 'Re-authorize linear' }).click();
    const url = await startedUrl();
    await commands()
      .getByLabel('Or paste the address you ended on')
      .fill(await approve(url));
    await commands().getByRole('button', { name: 'Finish authorization' }).click();
    await commands().getByRole('status').filter({ hasText: 'linear is authorized and connecting.' }).waitFor();
    await waitFor(async () => (await state()) === 'connected' && (await svc.server('linear'))?.connectedAt, {
      what: 'connected',
    });
    expect(before).not.toBeUndefined();
    expect(pageErrors).toEqual([]);
  });
});
