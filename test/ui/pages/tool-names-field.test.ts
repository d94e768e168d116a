/**
 * The "Other allowed tools" and "Other denied tools" fields of a server's settings in a real
 * headless Chromium against the real service, typed into key by key as a user does: Enter
 * starts a new line, a name being typed that is (or starts as) a tool the server lists stays in
 * the field rather than jumping into the ticks, and the names are read only when saved.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../../support/fixtures.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

describe('tool names typed into the settings form', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const entry = async () =>
    JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.tiny as Record<string, unknown>;

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.locator('tr[data-server="tiny"][data-state="connected"]').waitFor();
    await page.evaluate(`location.hash = '#/servers/tiny'`);
    await page.locator('p.summary[data-state="connected"]').waitFor();
    await page.getByRole('button', { name: 'Edit settings' }).click();
    await page.getByRole('form', { name: 'Settings of tiny' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('keeps the text as typed, Enter included; a listed name typed there is not ticked; saved as names', async () => {
    await page.getByRole('radio', { name: 'Only the tools ticked or named' }).check();
    const allowed = page.getByLabel('Other allowed tools', { exact: true });
    const echo = page.getByRole('group', { name: 'Allowed tools' }).getByRole('checkbox', { name: 'echo' });
    await allowed.click();
    await page.keyboard.type('echo');
    // A listed tool's name, half way to another name, stays in the field, unticked.
    expect(await allowed.inputValue()).toBe('echo');
    expect(await echo.isChecked()).toBe(false);
    await page.keyboard.type('-v2');
    await page.keyboard.press('Enter');
    await page.keyboard.type('  later-tool ');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('other');
    expect(await allowed.inputValue()).toBe('echo-v2\n  later-tool \n\nother');
    // Ticking a listed tool leaves the text as it is.
    await echo.check();
    expect(await allowed.inputValue()).toBe('echo-v2\n  later-tool \n\nother');
    const denied = page.getByLabel('Other denied tools', { exact: true });
    await denied.click();
    await page.keyboard.type('rm');
    await page.keyboard.press('Enter');
    await page.keyboard.type('mv');
    expect(await denied.inputValue()).toBe('rm\nmv');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await entry()).toMatchObject({
      allowedTools: ['echo', 'echo-v2', 'later-tool', 'other'],
      deniedTools: ['rm', 'mv'],
    });
    expect(pageErrors).toEqual([]);
  });
});
