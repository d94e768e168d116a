/**
 * The Config page in a real headless Chromium against the real service: reached from the
 * navigation, it shows `GET /api/config` as it is (the file it was read from, secrets masked:
 * an env value and a bearer header are nowhere in the page); **Download config (JSON)** saves
 * that same JSON; a change to the file is shown once applied (`config_applied`). On a lone
 * service (SQLite) the navigation has no Cluster link. No axe violations.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from '../../support/axe-run.js';
import { launchChromium } from '../../support/find-chromium.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';

const SECRET = 'sk-config-page-71d3';
const BEARER = 'Bearer hdr-secret-44a0';
const config = {
  mcpServers: {
    tiny: { command: process.execPath, args: [TINY_SERVER], env: { API_KEY: SECRET } },
    web: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: BEARER }, enabled: false },
  },
};

describe('the Config page', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const nav = () => page.getByRole('navigation', { name: 'Pages' });
  const view = () => page.getByRole('region', { name: 'The config in force (JSON)' });
  const shown = async () => JSON.parse((await view().textContent()) ?? 'null') as Record<string, unknown>;

  beforeAll(async () => {
    svc = await startTestService(config);
    browser = await launchChromium();
    // bypassCSP: axe is injected as an inline script.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${svc.service.url}/`);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await nav().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('shows the effective config as the API has it, secrets masked, and where it was read from', async () => {
    await nav().getByRole('link', { name: 'Config', exact: true }).click();
    await page.getByRole('heading', { name: 'Config', level: 1 }).waitFor();
    await view().waitFor();
    const api = (await svc.api<{ file: string; config: Record<string, unknown> }>('/api/config')).body;
    expect(await shown()).toEqual(api.config);
    expect(await page.locator('p.summary code').nth(1).textContent()).toBe(svc.configPath);
    const html = await page.content();
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain('hdr-secret-44a0');
    expect(html).toContain('********');
    // A lone service: no Cluster in the navigation.
    expect(await nav().getByRole('link', { name: 'Cluster' }).count()).toBe(0);
    expect((await runAxe(page)).violations).toEqual([]);
  });

  it('downloads the JSON shown', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download config (JSON)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('boternity-config.json');
    const text = await readFile(await download.path(), 'utf8');
    expect(JSON.parse(text)).toEqual(await shown());
    expect(text).not.toContain(SECRET);
  });

  it('follows a change to the file once it is applied', async () => {
    await svc.writeConfig({
      mcpServers: { ...config.mcpServers, added: { command: process.execPath, args: [TINY_SERVER] } },
    });
    await page.getByRole('region', { name: 'The config in force (JSON)' }).getByText('"added"').waitFor();
    expect(Object.keys((await shown()).mcpServers as object)).toContain('added');
    expect(pageErrors).toEqual([]);
  });
});
