/**
 * A tool called from a server's page (issue 19, tool inventory: progress, cancel, results)
 * in a real headless Chromium against the real service with a real stdio upstream (the
 * progress fixture): a long call shows "N of M: message" and a bar before its result; Cancel
 * stops it, and the upstream hears `notifications/cancelled` and the audit says so; the
 * result is highlighted JSON with its duration, and Copy puts that JSON on the clipboard;
 * enum values are offered and described without JSON quotes. With `UPDATE_SCREENSHOTS=1` it
 * writes docs/ui/tool-call-progress.png (a call in progress) and docs/ui/tool-call-result.png
 * (its result, copied).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from '../../support/fixtures.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const PROGRESS_SERVER = fixtureServer('progress-server.mjs');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;

describe('calling a tool from the web UI', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const card = (tool: string) => page.locator(`div.tool-row[data-tool="${tool}"]`);
  const form = (tool: string) => page.getByRole('form', { name: `Run ${tool}` });
  /** Open a tool's line (one line until opened: the tool inventory), once. */
  const openRow = async (tool: string) => {
    const opener = card(tool).locator('button.disclose');
    if ((await opener.getAttribute('aria-expanded')) === 'false') await opener.click();
  };
  /** Open a tool's test form. */
  const openForm = async (tool: string) => {
    await openRow(tool);
    await card(tool).getByText(`Try ${tool}`, { exact: true }).click();
    await form(tool).waitFor();
  };
  /** The cancellations the upstream heard, asked of it through the API. */
  const cancellations = async () =>
    (
      await svc.api<{ result: { structuredContent: { cancellations: { step: number; reason: string }[] } } }>(
        '/api/servers/progress/tools/cancellations/call',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      )
    ).body.result.structuredContent.cancellations;

  /** axe-core's violations (WCAG 2.2 AA) inside `selector`, as `rule: target` lines. */
  const axeViolations = async (selector: string) => {
    if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(await readFile(AXE, 'utf8'));
    const found = (await page.evaluate(
      `axe.run(${JSON.stringify(selector)}, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] })
        .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))))`,
    )) as string[];
    return found;
  };

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { progress: { command: process.execPath, args: [PROGRESS_SERVER] } } });
    await waitFor(async () => (await svc.server('progress'))?.state === 'connected', { what: 'the server connected' });
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    // What Copy writes is read back from the clipboard itself.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.service.url });
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    await page.evaluate(`location.hash = '#/servers/progress'`);
    await card('count').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('shows progress as it comes, then the result highlighted with its duration; Copy copies its JSON', async () => {
    await openForm('count');
    await form('count').getByLabel('steps', { exact: true }).fill('5');
    // Slower for the screenshot, to take it at "2 of 5".
    await form('count')
      .getByLabel('stepMs', { exact: true })
      .fill(SHOTS ? '800' : '150');
    // Every progress text the page showed, and when the result came, in order.
    await page.evaluate(`(() => {
      window.seen = [];
      const form = document.querySelector('form[aria-label="Run count"]');
      new MutationObserver(() => {
        const text = form.querySelector('.call-progress .note')?.textContent ?? null;
        const bar = form.querySelector('.call-progress progress');
        const now = form.querySelector('.result') ? 'result' : text && text + ' | ' + (bar?.getAttribute('value') ?? '-') + '/' + (bar?.getAttribute('max') ?? '-');
        if (now && window.seen.at(-1) !== now) window.seen.push(now);
      }).observe(form, { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
    await form('count').getByRole('button', { name: 'Run count' }).click();
    if (SHOTS) {
      await page.evaluate(`document.querySelector('form[aria-label="Run count"]').scrollIntoView({ block: 'center' })`);
      await form('count')
        .locator('.call-progress')
        .getByText(/^2 of 5/)
        .waitFor();
      await page.screenshot({ path: join(SHOTS, 'tool-call-progress.png') });
    }
    const result = form('count').locator('.result');
    await result.waitFor();
    const seen = (await page.evaluate('window.seen')) as string[];
    // Running before any report, then each step in order (the last may be painted in the
    // same frame as the result, so not seen on its own), then the result.
    expect(seen[0]).toBe('running… | -/-');
    expect(seen.at(-1)).toBe('result');
    const steps = seen.slice(1, -1);
    expect([4, 5]).toContain(steps.length);
    expect(steps).toEqual([1, 2, 3, 4, 5].slice(0, steps.length).map((n) => `${n} of 5: step ${n} done | ${n}/5`));
    // The duration: five steps of 150 ms at the least.
    const took = (await result.locator('.took').textContent()) ?? '';
    const match = /^took (?:(\d+) ms|(\d+\.\d\d) s)$/.exec(took);
    expect(match, took).not.toBeNull();
    expect(match?.[1] ? Number(match[1]) : Number(match?.[2]) * 1000).toBeGreaterThanOrEqual(750);
    // The structured content and the text that is JSON, both highlighted.
    expect(await result.locator('pre.json').count()).toBe(2);
    const structured = result.locator('details pre.json');
    expect(await structured.locator('.j-key').allTextContents()).toEqual(['"counted"', '"progressAsked"']);
    expect(await structured.locator('.j-num').allTextContents()).toEqual(['5']);
    expect(await structured.locator('.j-lit').allTextContents()).toEqual(['true']);
    // No progress left once answered, and Run is back.
    expect(await form('count').locator('.call-progress').count()).toBe(0);
    expect(await form('count').getByRole('button', { name: 'Run count' }).isEnabled()).toBe(true);
    await result.getByRole('button', { name: 'Copy JSON' }).click();
    await result.getByRole('status').getByText('Copied').waitFor();
    if (SHOTS) {
      await result.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: join(SHOTS, 'tool-call-result.png') });
    }
    const clipboard = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(clipboard).toBe(JSON.stringify({ counted: 5, progressAsked: true }, null, 2));
    // The result passes axe, and fits a 390 px window without scrolling sideways.
    expect(await axeViolations('form[aria-label="Run count"]')).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    try {
      const box = await result.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      expect(await result.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(pageErrors).toEqual([]);
  });

  it('Cancel stops a running call: the upstream hears the cancel and the audit says so', async () => {
    const before = (await cancellations()).length;
    await form('count').getByLabel('steps', { exact: true }).fill('1000');
    await form('count').getByLabel('stepMs', { exact: true }).fill('100');
    await form('count').getByRole('button', { name: 'Run count' }).click();
    await form('count')
      .locator('.call-progress')
      .getByText(/^\d+ of 1000: step \d+ done$/)
      .waitFor();
    expect(await form('count').getByRole('button', { name: 'Running…' }).isDisabled()).toBe(true);
    // The running form (bar, words, Cancel) passes axe.
    expect(await axeViolations('form[aria-label="Run count"]')).toEqual([]);
    await form('count').getByRole('button', { name: 'Cancel count' }).click();
    await form('count').getByRole('status').getByText('Cancelled: the call to count was stopped.').waitFor();
    expect(await form('count').locator('.call-progress, .result').count()).toBe(0);
    const heard = await waitFor(async () => (await cancellations()).slice(before)[0], {
      what: 'the upstream hearing notifications/cancelled',
    });
    expect(heard.reason).toContain('cancelled by the client');
    expect(heard.step).toBeLessThan(1000);
    const row = await waitFor(
      async () =>
        (
          await svc.api<{ entries: Record<string, unknown>[] }>('/api/audit?server=progress&tool=count')
        ).body.entries.find((r) => r.error === 'cancelled by the client'),
      { what: 'the audit row' },
    );
    expect(row).toMatchObject({ eventType: 'tool_call', clientId: 'admin', success: false });
    expect(await form('count').getByRole('button', { name: 'Run count' }).isEnabled()).toBe(true);
    // The focus left with the Cancel button: it is back on Run, not lost to the page.
    await waitFor(() => page.evaluate(`document.activeElement?.textContent === 'Run count'`), {
      what: 'the focus on Run',
    });
    expect(pageErrors).toEqual([]);
  });

  it('offers and describes enum values without JSON quotes, and sends the value chosen', async () => {
    await openRow('weather');
    const types = await card('weather').locator('table tbody tr td:first-of-type').allTextContents();
    expect(types).toEqual([
      'one of Paris, Lisbon, New York',
      'one of celsius, fahrenheit (default celsius)',
      'one of 1, 3, 7',
    ]);
    await openForm('weather');
    const city = form('weather').getByLabel('city', { exact: true });
    expect(await city.locator('option').allTextContents()).toEqual(['Paris', 'Lisbon', 'New York']);
    expect(await form('weather').getByLabel('units', { exact: true }).locator('option').allTextContents()).toEqual([
      '(not set)',
      'celsius',
      'fahrenheit',
    ]);
    expect(await form('weather').getByLabel('days', { exact: true }).locator('option').allTextContents()).toEqual([
      '(not set)',
      '1',
      '3',
      '7',
    ]);
    await city.selectOption({ label: 'New York' });
    await form('weather').getByLabel('days', { exact: true }).selectOption({ label: '3' });
    await form('weather').getByRole('button', { name: 'Run weather' }).click();
    const structured = form('weather').locator('.result details pre.json');
    await structured.waitFor();
    expect(JSON.parse((await structured.textContent()) ?? '')).toEqual({
      city: 'New York',
      units: 'celsius',
      days: 3,
      temperature: 21.5,
      sunny: true,
      note: null,
    });
    expect(await structured.locator('.j-str').allTextContents()).toEqual(['"New York"', '"celsius"']);
    expect(pageErrors).toEqual([]);
  });
});
