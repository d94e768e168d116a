/**
 * A bot's chat read by a screen reader (issue 19, accessibility), in a real headless Chromium
 * against the real service, the bot's provider the local OpenAI-compatible fixture: the
 * answer streams into its bubble, which no live region holds (the log is not one) and which
 * is `aria-busy` while it grows; nothing is announced while it does, and a polite status
 * says it once, whole, when the turn ends. Every moment of the chat is recorded in the page
 * by a MutationObserver, so the test sees each state the reader could have heard.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../../support/fixtures.js';
import { type OpenAiFixture, startOpenAiFixture } from '../../support/openai-fixture.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

describe("a bot's chat for a screen reader", { timeout: 90_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    const made = await svc.send('POST', '/api/bots', {
      slug: 'scout',
      name: 'Scout',
      provider: { baseUrl: fixture.baseUrl, model: 'm' },
    });
    expect(made.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await fixture?.close();
  });

  it('a streamed answer is not announced piece by piece: one polite status says it once it is finished', async () => {
    await page.evaluate("location.hash = '#/bots/scout'");
    // Within the test's time, so a hang says what the page shows (it timed out once in a
    // whole-suite run on a loaded machine, and passed alone).
    await page
      .locator('#chat-message')
      .waitFor({ timeout: 20_000 })
      .catch(async (error: Error) => {
        const shown = ((await page.locator('body').textContent()) ?? '').slice(0, 400);
        throw new Error(`the bot page shows no message box: ${shown}`, { cause: error });
      });
    fixture.reply({ text: ANSWER });
    // Every moment of the answer: its text, whether it is busy, whether a live region holds it, what is announced.
    await page.evaluate(`(() => {
      window.moments = [];
      const live = '[aria-live]:not([aria-live="off"]), [role=log], [role=status], [role=alert], [role=marquee], [role=timer]';
      new MutationObserver(() => {
        const bubble = document.querySelector('.chat-assistant:last-child');
        const status = document.querySelector('.chat [role=status]');
        window.moments.push({
          text: bubble?.textContent ?? null,
          busy: bubble?.getAttribute('aria-busy') ?? null,
          inLive: bubble ? bubble.parentElement.closest(live) !== null : false,
          announced: status?.textContent ?? null,
        });
      }).observe(document.querySelector('.chat'), { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
    await page.getByLabel('Message', { exact: true }).fill('Say forty words.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.chat-assistant[aria-busy="false"]').getByText(ANSWER).waitFor();
    await waitFor(async () => (await page.locator('.chat [role=status]').textContent())?.includes(ANSWER), {
      what: 'the answer announced',
    });
    const moments = (await page.evaluate('window.moments')) as {
      text: string | null;
      busy: string | null;
      inLive: boolean;
      announced: string | null;
    }[];
    const streaming = moments.filter((m) => m.text !== null && m.busy === 'true');
    // It did stream: the bubble grew while busy.
    expect(new Set(streaming.map((m) => m.text)).size).toBeGreaterThan(1);
    expect(streaming.every((m) => (m.text?.length ?? 0) <= ANSWER.length)).toBe(true);
    // No live region holds the growing text, and nothing is announced while it grows.
    expect(moments.filter((m) => m.inLive)).toEqual([]);
    expect(streaming.filter((m) => m.announced !== '')).toEqual([]);
    // Announced once, whole, at the end.
    const announcements = moments.map((m) => m.announced).filter((a, i, all) => a && a !== all[i - 1]);
    expect(announcements).toEqual([`Answer complete: ${ANSWER}`]);
    expect(await page.locator('.chat-log').getAttribute('aria-live')).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
