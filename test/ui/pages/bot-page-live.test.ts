/**
 * A bot's tab kept honest in a real headless Chromium against the real service: its sampling
 * spend reset from the page (`POST /api/bots/{slug}/sampling/reset`, asked twice; the spend is
 * written to the service's own database first, as an answered sampling request leaves it); a
 * reload that fails while the bot is on the page is said; a bot deleted elsewhere (here by the
 * API, or by a hand edit of the config file) is said to be gone, with the way back to the
 * list; one whose profile alone is deleted (its view stays in the config file) stays on the
 * page. No axe violations on the gone page.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBotSamplingUsage } from '../../../src/storage/bot-sampling-usage-repo.js';
import { createDb } from '../../../src/storage/create-db.js';
import { runAxe } from '../../support/axe-run.js';
import { launchChromium } from '../../support/find-chromium.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';

describe("a bot's tab: sampling reset, reload errors, deleted elsewhere", { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const go = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  const sampling = () => page.locator('section[aria-labelledby="bot-sampling-title"]');

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    const made = await svc.send<{ bot: { profile: { id: string } } }>('POST', '/api/bots', {
      slug: 'scout',
      name: 'Scout',
      samplingBudgetTokens: 100,
    });
    expect(made.status).toBe(201);
    // What an answered sampling request leaves: 42 tokens charged to scout.
    const { db, close } = await createDb({ url: `file:${join(svc.home, 'boternity.db')}` });
    await recordBotSamplingUsage(db, {
      botId: made.body.bot.profile.id,
      serverName: 'tiny',
      promptTokens: 30,
      completionTokens: 12,
      estimated: false,
    });
    await close();
    browser = await launchChromium();
    // bypassCSP: axe is injected as an inline script.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${svc.service.url}/`);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('resets the sampling spend: asked twice, then 0 on the page and in the API', async () => {
    await go('#/bots/scout');
    await sampling().getByText("42 tokens spent answering servers' sampling requests of a budget of 100.").waitFor();
    await sampling().getByRole('button', { name: 'Reset spend' }).click();
    await sampling().getByRole('button', { name: 'Cancel' }).click();
    expect((await svc.api<{ usedTokens: number }>('/api/bots/scout/sampling')).body.usedTokens).toBe(42);
    await sampling().getByRole('button', { name: 'Reset spend' }).click();
    await sampling().getByRole('button', { name: "Reset scout's spend to 0?" }).click();
    await sampling().getByRole('status').getByText('Spend reset to 0.').waitFor();
    await sampling().getByText("0 tokens spent answering servers' sampling requests of a budget of 100.").waitFor();
    expect((await svc.api<{ usedTokens: number }>('/api/bots/scout/sampling')).body.usedTokens).toBe(0);
  });

  it('says a reload that failed while the bot is on the page, and clears it once one succeeds', async () => {
    await go('#/bots/scout');
    await page.locator('p.summary').waitFor();
    await page.route('**/api/bots/scout', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'database unavailable' } }),
      }),
    );
    // A change made elsewhere: the page reads the bot again, and that read fails.
    expect((await svc.send('PATCH', '/api/bots/scout', { description: 'changed elsewhere' })).status).toBe(200);
    await page.getByRole('alert').getByText('Could not read scout again: database unavailable').waitFor();
    expect(await page.locator('p.summary').count()).toBe(1);
    await page.unroute('**/api/bots/scout');
    expect((await svc.send('PATCH', '/api/bots/scout', { description: 'changed again' })).status).toBe(200);
    await page.getByText('Could not read scout again', { exact: false }).waitFor({ state: 'detached' });
  });

  it('a bot whose profile alone is deleted stays; one deleted outright is said gone, with the way back', async () => {
    await go('#/bots/scout');
    await page.locator('p.summary').waitFor();
    // Only its profile: a view in the config file (tiny taken out of it) keeps it, without a profile.
    expect((await svc.api('/api/bots/scout/servers/tiny', { method: 'DELETE' })).status).toBe(200);
    expect((await svc.api('/api/bots/scout', { method: 'DELETE' })).status).toBe(200);
    await page.getByRole('button', { name: 'Give it a profile' }).waitFor();
    expect(await page.getByText('was deleted').count()).toBe(0);
    // Given one again, then deleted with its view: gone.
    expect((await svc.send('POST', '/api/bots', { slug: 'scout', name: 'Scout' })).status).toBe(201);
    await page.getByRole('button', { name: 'Edit profile' }).waitFor();
    expect((await svc.api('/api/bots/scout?withView=true', { method: 'DELETE' })).status).toBe(200);
    await page
      .getByRole('alert')
      .getByText('Bot scout was deleted elsewhere (the API, the CLI, another tab or the config file).')
      .waitFor();
    expect(await page.locator('p.summary').count()).toBe(0);
    expect((await runAxe(page)).violations).toEqual([]);
    await page.getByRole('link', { name: 'Back to the bots' }).click();
    await page.getByRole('heading', { name: 'Bots', level: 1 }).waitFor();
  });

  it('a config-only bot dropped by a hand edit of the config file is said gone too', async () => {
    // A view and no profile: made with the API, its profile then deleted (the view stays).
    expect((await svc.send('POST', '/api/bots', { slug: 'helper', name: 'Helper' })).status).toBe(201);
    expect((await svc.api('/api/bots/helper/servers/tiny', { method: 'DELETE' })).status).toBe(200);
    expect((await svc.api('/api/bots/helper', { method: 'DELETE' })).status).toBe(200);
    await go('#/bots/helper');
    await page.getByRole('button', { name: 'Give it a profile' }).waitFor();
    const file = JSON.parse(await readFile(svc.configPath, 'utf8')) as { bots?: unknown };
    expect(Object.keys(file.bots ?? {})).toEqual(['helper']);
    delete file.bots;
    await svc.writeConfig(file);
    await page.getByRole('alert').getByText('Bot helper was deleted elsewhere').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
