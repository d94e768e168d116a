/**
 * The quarantines page in a real headless Chromium against the real service and a real
 * rug-pull upstream (rug-pull-server.mjs): the changed lines of a held tool are marked by more
 * than colour (a visible − or +, and words a screen reader reads: WCAG 1.4.1); Approve asks
 * once more (Cancel keeps it held) and, once confirmed, is disabled while its request is out,
 * so a double click sends one request; no axe violations with a tool held.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from '../../support/axe-run.js';
import { launchChromium } from '../../support/find-chromium.js';
import { fixtureServer } from '../../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const RUG_SERVER = fixtureServer('rug-pull-server.mjs');

describe('the quarantines page', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const held = () => page.locator('[data-quarantine="rug/calc"]');

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { rug: { command: process.execPath, args: [RUG_SERVER] } } });
    await waitFor(async () => (await svc.server('rug'))?.state === 'connected', { what: 'rug connected' });
    browser = await launchChromium();
    // bypassCSP: axe is injected as an inline script.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${svc.service.url}/`);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Quarantines' }).click();
    await page.getByText('Nothing is held.').waitFor();
    const mutate = await svc.send('POST', '/api/servers/rug/tools/mutate/call', { arguments: {} });
    expect(mutate.status).toBe(200);
    await held().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('marks each changed line with a visible − or + and words for a screen reader, not colour alone', async () => {
    const [pinned, now] = [held().locator('figure').nth(0), held().locator('figure').nth(1)];
    const removed = pinned.locator('.changed').filter({ hasText: 'Adds two numbers' });
    const added = now.locator('.changed').filter({ hasText: 'id_rsa' });
    // Seen: the mark starts the line, on the line itself.
    for (const [line, sign] of [
      [removed, '− '],
      [added, '+ '],
    ] as const) {
      const mark = line.locator('.mark');
      expect(await mark.textContent()).toBe(sign);
      expect(await mark.isVisible()).toBe(true);
      const [markBox, lineBox] = [await mark.boundingBox(), await line.boundingBox()];
      expect(Math.abs((markBox?.y ?? -99) - (lineBox?.y ?? 99))).toBeLessThan(2);
    }
    expect(await removed.textContent()).toBe('− removed: Adds two numbers\n');
    // Read out: the words, not the sign (which is hidden from assistive technology).
    expect(await removed.locator('.visually-hidden').textContent()).toBe('removed: ');
    expect(await added.locator('.visually-hidden').textContent()).toBe('added: ');
    expect(await added.locator('[aria-hidden="true"]').textContent()).toBe('+ ');
    // A line on both sides has no mark.
    const same = now.locator('span:not(.changed)').filter({ hasText: 'input schema:' }).first();
    expect(await same.textContent()).toBe('  input schema:\n');
    await held().getByText('− a line only in the pinned text, + a line only in the new one.').waitFor();
    expect((await runAxe(page)).violations).toEqual([]);
  });

  it('asks before approving, then is disabled while the approval is sent: one request for a double click', async () => {
    await held().getByRole('button', { name: 'Approve the new calc' }).click();
    await held().getByRole('button', { name: 'Cancel' }).click();
    expect((await svc.api<{ quarantines: unknown[] }>('/api/quarantines')).body.quarantines).toHaveLength(1);
    // The approval's answer held in the browser, to look at the button meanwhile.
    const sent: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/servers/rug/tools/calc/approve*', async (route) => {
      sent.push(route.request().url());
      await gate;
      await route.continue();
    });
    await held().getByRole('button', { name: 'Approve the new calc' }).click();
    await held().getByRole('button', { name: 'Approve calc as it is now?' }).dblclick();
    const busy = held().getByRole('button', { name: 'Approving calc…' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await busy.click({ force: true });
    await waitFor(() => sent.length === 1, { what: 'the approval sent' });
    release();
    await page.getByText('Nothing is held.').waitFor();
    await page.unroute('**/api/servers/rug/tools/calc/approve*');
    expect(sent).toHaveLength(1);
    expect((await svc.api<{ quarantines: unknown[] }>('/api/quarantines')).body.quarantines).toHaveLength(0);
    expect(pageErrors).toEqual([]);
  });
});
