/**
 * A headless Chromium page of the web UI signed in with the admin token, as the browser
 * tests of the pages start: a 1280 × 800 window, every uncaught page error collected into
 * `pageErrors` (each test asserts it empty).
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './find-chromium.js';
import { TEST_TOKEN } from './test-service.js';

/** Launch Chromium, open `url` and sign in; resolves once the sign-in was sent. */
export async function openSignedInPage(url: string, pageErrors: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${url}/`);
  await page.getByLabel('Admin token').fill(TEST_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { browser, page };
}
