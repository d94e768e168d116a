/**
 * A hand edit of the config file that fails to load, seen in a real headless Chromium against
 * the real service: the `config_error` event puts a banner on every page (the file, that the
 * last good config stays in force, and the loader's message, as the event has it), which
 * stays through page changes and goes with the next `config_applied` (the file fixed). No axe
 * violations with the banner shown.
 */
import { writeFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from '../../support/axe-run.js';
import { launchChromium } from '../../support/find-chromium.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';

const config = { mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } };

describe('the config error banner', { timeout: 90_000 }, () => {
  let svc: TestService;
  let events: Awaited<ReturnType<TestService['events']>>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const banner = () => page.locator('.config-error');

  beforeAll(async () => {
    svc = await startTestService(config);
    events = await svc.events();
    browser = await launchChromium();
    // bypassCSP: axe is injected as an inline script.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${svc.service.url}/`);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-server="tiny"]').waitFor();
  });
  afterAll(async () => {
    await events?.close();
    await browser?.close();
    await svc?.stop();
  });

  it('shows the error of a hand edit that fails to load, on every page, until the file loads again', async () => {
    expect(await banner().count()).toBe(0);
    await writeFile(svc.configPath, '{ "mcpServers": { "tiny": ');
    const event = (await events.next((e) => e.event === 'config_error')).data as { message: string; file: string };
    await banner().waitFor();
    expect(await banner().getAttribute('role')).toBe('alert');
    expect(await banner().textContent()).toContain('The config file could not be loaded');
    expect(await banner().locator('code').textContent()).toBe(event.file);
    expect(await banner().locator('.config-error-message').textContent()).toBe(event.message);
    expect((await runAxe(page)).violations).toEqual([]);
    // Still there on another page.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Bots' }).click();
    await page.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
    expect(await banner().count()).toBe(1);
    // Fixed (and changed, so that it is applied): the banner goes.
    await svc.writeConfig({ mcpServers: { ...config.mcpServers, tiny2: config.mcpServers.tiny } });
    await events.next((e) => e.event === 'config_applied');
    await banner().waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
