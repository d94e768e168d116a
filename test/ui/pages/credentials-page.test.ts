/**
 * The credentials page and a preset's credential asked for in place (issue 19, credentials),
 * in a real headless Chromium against the real service. Set from the page: the keystore has
 * it (read back from the home's keystore file, as `bnity mcp credential` does) and the value
 * is nowhere in the page once saved; the list shows the name only; a bad name gets the API's
 * one line next to the Name field and nothing is stored; remove asks first. In the add-server
 * form, the `github` preset (pointed at a local Streamable HTTP server that refuses any
 * request without the right bearer) offers "Set credential github-token": the add stores it,
 * proceeds, and the server connects with it. With `UPDATE_SCREENSHOTS=1` it writes
 * docs/ui/credentials.png and docs/ui/preset-credential.png.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeystore } from '../../../src/storage/keystore.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTinyHttp, type TinyHttp } from '../../support/start-tiny-http.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;
const PAGE_SECRET = 'sk-page-secret-8c41d07e';
const GITHUB_SECRET = 'ghp-inline-secret-2b9f6a13';

describe('credentials in the web UI', { timeout: 90_000 }, () => {
  let svc: TestService;
  let upstream: TinyHttp;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const keystore = () => openKeystore({ home: svc.home, env: {} });
  /** Everything the page holds as text: its markup and every input's current value. */
  const pageText = () =>
    page.evaluate(
      "document.documentElement.outerHTML + [...document.querySelectorAll('input, textarea')].map((i) => i.value).join('\\n')",
    ) as Promise<string>;

  beforeAll(async () => {
    upstream = await startTinyHttp(undefined, { BEARER: GITHUB_SECRET });
    svc = await startTestService({ mcpServers: {} });
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await upstream?.stop();
  });

  it('is reached from the navigation; a value set there is in the keystore, the list shows the name only, the value is gone from the page', async () => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Credentials' }).click();
    await page.getByRole('heading', { name: 'Credentials', level: 1 }).waitFor();
    await page.getByText('No credentials yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('openai-key');
    const value = page.getByLabel('Value', { exact: true });
    expect(await value.getAttribute('type')).toBe('password');
    await value.fill(PAGE_SECRET);
    await page.getByRole('button', { name: 'Save credential' }).click();
    const row = page.locator('tr[data-credential="openai-key"]');
    await row.waitFor();
    await page.getByRole('status').getByText('Saved openai-key.').waitFor();
    expect(await (await keystore()).get('openai-key')).toBe(PAGE_SECRET);
    // The list is the name and its Remove button; the value is in no markup and no input.
    expect(await row.locator('th, td').allTextContents()).toEqual(['openai-key', 'Remove']);
    expect(await value.inputValue()).toBe('');
    expect(await pageText()).not.toContain(PAGE_SECRET);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'credentials.png'), fullPage: true });
  });

  it("a bad name: the API's one line next to the Name field, and nothing is stored", async () => {
    await page.getByLabel('Name', { exact: true }).fill('bad name!');
    await page.getByLabel('Value', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Save credential' }).click();
    const note = page.locator('#credential-name-error');
    await note.waitFor();
    expect(await note.textContent()).toBe('invalid credential name "bad name!": use 1 to 64 of A-Z a-z 0-9 _ . -');
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-describedby')).toBe(
      'credential-name-error',
    );
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await (await keystore()).names()).toEqual(['openai-key']);
    expect(await page.locator('tr[data-credential]').count()).toBe(1);
    await page.getByLabel('Value', { exact: true }).fill('');
    await page.getByLabel('Name', { exact: true }).fill('');
  });

  it('remove asks first (Cancel keeps it), then removes it from the keystore', async () => {
    const row = page.locator('tr[data-credential="openai-key"]');
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    expect(await (await keystore()).names()).toEqual(['openai-key']);
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Remove openai-key?' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await (await keystore()).names()).toEqual([]);
  });

  it('a preset that needs a credential offers to set it in place; the add stores it, proceeds, and the server connects with it', async () => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Servers' }).click();
    const form = page.locator('form.add-server');
    await form.waitFor();
    await form.getByLabel('Name', { exact: true }).fill('gh');
    await form.getByLabel('Preset', { exact: true }).selectOption('github');
    const field = form.getByLabel('Set credential github-token');
    await field.waitFor();
    expect(await field.getAttribute('type')).toBe('password');
    // The preset's address stands in for GitHub's own (offline here): a server that wants this bearer.
    await form.getByLabel('URL', { exact: true }).fill(upstream.url);
    if (SHOTS) await form.screenshot({ path: join(SHOTS, 'preset-credential.png') });
    await field.fill(GITHUB_SECRET);
    await form.getByRole('button', { name: 'Add server' }).click();
    await page.locator('tr[data-server="gh"][data-state="connected"]').waitFor({ timeout: 30_000 });
    expect(await (await keystore()).get('github-token')).toBe(GITHUB_SECRET);
    const { body } = await svc.api<{ server: { credentialKey?: string; toolCount: number } }>('/api/servers/gh');
    expect(body.server).toMatchObject({ credentialKey: 'github-token', toolCount: 1 });
    expect(await pageText()).not.toContain(GITHUB_SECRET);
    // Set now: the same preset again names it as set and asks for nothing.
    await form.getByLabel('Preset', { exact: true }).selectOption('github');
    await form.getByText('Credential: github-token (set).').waitFor();
    expect(await form.getByLabel('Set credential github-token').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('the inline credential is required: without a value nothing is sent, stored or added', async () => {
    // Removed behind the form's back: the form asks again once it re-reads the list (a reload).
    await svc.api('/api/credentials/github-token', { method: 'DELETE' });
    await page.reload();
    const form = page.locator('form.add-server');
    await form.getByLabel('Name', { exact: true }).fill('gh2');
    await form.getByLabel('Preset', { exact: true }).selectOption('github');
    const field = form.getByLabel('Set credential github-token');
    await field.waitFor();
    // Required: an empty value is stopped by the browser, and nothing is sent.
    await form.getByRole('button', { name: 'Add server' }).click();
    expect(await page.evaluate("document.getElementById('add-credential').validity.valueMissing")).toBe(true);
    await waitFor(async () => (await svc.servers()).length === 1, { what: 'still one server' });
    expect(await (await keystore()).names()).toEqual([]);
  });
});
