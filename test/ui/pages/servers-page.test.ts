/**
 * The servers list and a server's page in a real headless Chromium against the real service
 * with real stdio upstreams (issue 19: state that stays true, commands on the server's page,
 * held tools counted, narrow windows): an attempt shown only while the server is trying; no
 * ping on a disabled row; a notice gone once the state it spoke of changed; numbers and their
 * headings right-aligned; columns that stay put when an error appears; connect, disconnect and
 * remove from the server's page; the held-tools count in the navigation and on the row,
 * following a rug-pull and its approval; no page scrolling sideways at 390 px. With
 * `UPDATE_SCREENSHOTS=1` it writes docs/ui/server-held.png (a server's page with a held tool).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, TINY_SERVER } from '../../support/fixtures.js';
import { type OpenAiFixture, startOpenAiFixture } from '../../support/openai-fixture.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const RUG_SERVER = fixtureServer('rug-pull-server.mjs');
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;

/** What a row showed at one moment. */
type Seen = { state: string; attempt: string | null; error: string };

describe('the servers pages in a real browser', { timeout: 90_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  // The page's CSP forbids eval, which waitForFunction's string form needs: ask from here instead.
  const until = (expression: string, what: string, timeoutMs = 15_000) =>
    waitFor(() => page.evaluate(expression), { what, timeoutMs });
  const row = (name: string) => page.locator(`tr[data-server="${name}"]`);
  const go = async (hash: string) => {
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  };
  const pidOf = async (name: string) => (await svc.server(name))?.pid ?? 0;
  /** Has rug's `mutate` rewrite calc's description (to `text`, or an injection payload): calc is held. */
  const mutateCalc = async (text?: string) => {
    const mutated = await svc.api('/api/servers/rug/tools/mutate/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: text === undefined ? {} : { text } }),
    });
    expect(mutated.status).toBe(200);
  };
  /** The widths of the servers table's columns, from its headings. */
  const columnWidths = () =>
    page.evaluate(
      "[...document.querySelectorAll('table.servers thead th')].map((th) => th.getBoundingClientRect().width)",
    ) as Promise<number[]>;

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    svc = await startTestService({
      mcpServers: {
        everything: { preset: 'everything' },
        // Pinged often, so its row has a latency to show (and to stop showing).
        rug: { command: process.execPath, args: [RUG_SERVER], healthIntervalMs: 200 },
        tiny: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'every server connected',
      timeoutMs: 30_000,
    });
    const made = await svc.send('POST', '/api/bots', {
      slug: 'scout',
      name: 'Scout',
      provider: { baseUrl: fixture.baseUrl, model: 'm' },
    });
    expect(made.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await until("document.querySelectorAll('tr[data-state=connected]').length === 3", 'three connected rows');
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await fixture?.close();
  });

  it('numbers are right-aligned under headings aligned the same way', async () => {
    const aligned = (await page.evaluate(`(() => {
      const table = document.querySelector('table.servers');
      const heads = [...table.querySelectorAll('thead th')];
      return [...table.querySelectorAll('tbody tr:first-child td.num')].map((td) => {
        const index = [...td.parentElement.children].indexOf(td);
        return [heads[index].textContent, getComputedStyle(heads[index]).textAlign, getComputedStyle(td).textAlign];
      });
    })()`)) as [string, string, string][];
    expect(aligned).toEqual([
      ['ping', 'right', 'right'],
      ['tools / resources / prompts', 'right', 'right'],
    ]);
  });

  it('a crash: the error appears without moving the columns; "attempt N" shows while trying, not once connected', async () => {
    const before = await columnWidths();
    expect(await row('tiny').locator('.error-cell').textContent()).toBe('');
    // Every moment of the row, to see what it showed while it was trying.
    await page.evaluate(`(() => {
      window.seen = [];
      new MutationObserver(() => {
        const r = document.querySelector('tr[data-server="tiny"]');
        if (!r) return;
        const now = { state: r.dataset.state, attempt: r.querySelector('.attempt')?.textContent ?? null,
          error: r.querySelector('.error-cell').textContent };
        const last = window.seen.at(-1);
        if (!last || last.state !== now.state || last.attempt !== now.attempt || last.error !== now.error) window.seen.push(now);
      }).observe(document.querySelector('table.servers tbody'), { attributes: true, subtree: true, childList: true, characterData: true });
    })()`);
    process.kill(await pidOf('tiny'), 'SIGKILL');
    await until(
      "(() => { const s = window.seen; const e = s.findIndex((x) => x.error !== ''); return e >= 0 && s.findIndex((x, i) => i > e && x.state === 'connected') > e; })()",
      'an error shown, then connected',
      20_000,
    );
    const seen = (await page.evaluate('window.seen')) as Seen[];
    const failed = seen.find((s) => s.error !== '') as Seen;
    expect(failed.state).toBe('reconnecting');
    expect(failed.attempt).toBe('attempt 1');
    expect(seen.at(-1)).toEqual({ state: 'connected', attempt: null, error: '' });
    // Connected (before the kill, when a ping redrew the row, and after): never an attempt.
    const connected = seen.filter((s) => s.state === 'connected').map((s) => s.attempt);
    expect(connected.length).toBeGreaterThan(0);
    expect(connected.every((attempt) => attempt === null)).toBe(true);
    // Measured again with the error in its cell: no column moved. The widths are taken by the
    // page at the moment the error shows (the server may be back before a round trip would).
    await page.evaluate(`(() => {
      window.errorWidths = null;
      const observer = new MutationObserver(() => {
        const cell = document.querySelector('tr[data-server="tiny"] .error-cell');
        if (!cell || cell.textContent === '') return;
        window.errorWidths = [...document.querySelectorAll('table.servers thead th')].map((th) => th.getBoundingClientRect().width);
        observer.disconnect();
      });
      observer.observe(document.querySelector('table.servers tbody'), { attributes: true, subtree: true, childList: true, characterData: true });
    })()`);
    process.kill(await pidOf('tiny'), 'SIGKILL');
    await until('window.errorWidths !== null', 'the error in the row');
    expect(await page.evaluate('window.errorWidths')).toEqual(before);
    await row('tiny').and(page.locator('[data-state="connected"]')).waitFor();
    // The server's own page says the same: no attempt once connected.
    await go('#/servers/tiny');
    await page.locator('p.summary[data-state="connected"]').waitFor();
    expect(await page.locator('p.summary .attempt').count()).toBe(0);
    await go('#/servers');
    await row('tiny').waitFor();
  });

  it('a disabled row shows no ping, and the notice of its disconnect goes once it is disabled', async () => {
    const ping = row('rug').locator('td.num').first();
    await waitFor(async () => /^\d+ ms$/.test((await ping.textContent()) ?? ''), { what: 'a ping on the rug row' });
    await row('rug').getByRole('button', { name: 'Disconnect rug' }).click();
    await row('rug').and(page.locator('[data-state="disabled"]')).waitFor();
    expect(await ping.textContent()).toBe('–');
    expect(await row('rug').getByRole('status').textContent()).toBe('');
    await row('rug').getByRole('button', { name: 'Connect rug' }).click();
    await row('rug').and(page.locator('[data-state="connected"]')).waitFor();
    expect(await row('rug').getByRole('status').textContent()).toBe('');
    await waitFor(async () => /^\d+ ms$/.test((await ping.textContent()) ?? ''), { what: 'a ping again' });
  });

  it('held tools are counted in the navigation and on the row, live, until approved', async () => {
    const count = page.locator('nav .count');
    expect(await count.count()).toBe(0);
    expect(await row('rug').getAttribute('data-held')).toBe('0');
    await mutateCalc();
    await count.waitFor();
    expect(await count.textContent()).toBe(' 1 held');
    expect(await page.getByRole('link', { name: 'Quarantines 1 held' }).count()).toBe(1);
    await row('rug').and(page.locator('[data-held="1"]')).waitFor();
    expect(await row('rug').locator('a.held').textContent()).toBe('1 held tools of rug');
    expect(await row('tiny').getAttribute('data-held')).toBe('0');
    await go('#/servers/rug');
    await page.locator('p.summary[data-held="1"]').waitFor();
    expect(await page.locator('p.summary a.held').textContent()).toBe('1 held');
    if (SHOTS) {
      await page.locator('[data-tool="calc"] .badge').waitFor();
      await page.screenshot({ path: join(SHOTS, 'server-held.png') });
    }
    const approved = await svc.api('/api/servers/rug/tools/calc/approve', { method: 'POST' });
    expect(approved.status).toBe(200);
    await count.waitFor({ state: 'detached' });
    await page.locator('p.summary[data-held="0"]').waitFor();
    await go('#/servers');
    await row('rug').and(page.locator('[data-held="0"]')).waitFor();
    expect(await row('rug').locator('a.held').count()).toBe(0);
  });

  it('an approval made elsewhere clears the count even while a read that started before it is in flight', async () => {
    const count = page.locator('nav .count');
    await mutateCalc('Adds two numbers, said again');
    await count.waitFor();
    // The server's page reads the held tools as it opens: that read is answered before the
    // approval, and its answer handed to the page only after.
    let answered!: () => void;
    const beforeApproval = new Promise<void>((resolve) => {
      answered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reads = 0;
    await page.route('**/api/quarantines', async (route) => {
      if (++reads > 1) return route.continue();
      const response = await route.fetch();
      answered();
      await released;
      await route.fulfill({ response });
    });
    try {
      await go('#/servers/rug');
      await beforeApproval;
      const nextRead = page.waitForRequest((request) => request.url().endsWith('/api/quarantines'), {
        timeout: 15_000,
      });
      const approved = await svc.api('/api/servers/rug/tools/calc/approve', { method: 'POST' });
      expect(approved.status).toBe(200);
      // The stream's tool_approved has the count read again, not taken from the read in flight.
      await nextRead;
      await count.waitFor({ state: 'detached' });
      release();
      await page.locator('p.summary[data-held="0"]').waitFor();
      expect(await count.count()).toBe(0);
    } finally {
      release();
      await page.unroute('**/api/quarantines');
    }
  });

  it("a server's own page connects, disconnects, and removes it after a confirmation, back on the list", async () => {
    await go('#/servers/tiny');
    const summary = page.locator('p.summary');
    await summary.and(page.locator('[data-state="connected"]')).waitFor();
    await page.getByRole('button', { name: 'Disconnect tiny' }).click();
    await summary.and(page.locator('[data-state="disabled"]')).waitFor();
    expect((await svc.server('tiny'))?.state).toBe('disabled');
    await page.getByRole('button', { name: 'Connect tiny' }).click();
    await summary.and(page.locator('[data-state="connected"]')).waitFor();
    expect((await svc.server('tiny'))?.state).toBe('connected');
    await page.getByRole('button', { name: 'Remove tiny', exact: true }).click();
    // The first press only asks; Cancel steps back, and nothing is removed.
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await svc.server('tiny')).toBeDefined();
    await page.getByRole('button', { name: 'Remove tiny', exact: true }).click();
    await page.getByRole('button', { name: 'Remove tiny?' }).click();
    await waitFor(async () => (await page.locator('h1').textContent()) === 'Servers', { what: 'back on the list' });
    expect(page.url()).toMatch(/#\/servers$/);
    await until("document.querySelectorAll('tr[data-server]').length === 2", 'two rows left');
    expect(await row('tiny').count()).toBe(0);
    expect((await svc.servers()).map((s) => s.name)).toEqual(['everything', 'rug']);
  });

  it('no page scrolls sideways in a 390 px window', async () => {
    // Something held, so the quarantines page shows its side-by-side texts.
    await mutateCalc('A much longer description that replaced the one pinned before');
    await page.setViewportSize({ width: 390, height: 844 });
    const pages: [string, string][] = [
      ['#/servers', 'tr[data-server]'],
      ['#/servers/everything', '[data-tool]'],
      ['#/servers/rug', '[data-tool]'],
      ['#/bots', 'tr[data-bot]'],
      ['#/bots/scout', 'textarea'],
      ['#/quarantines', '[data-quarantine]'],
      ['#/audit', 'table.audit'],
      ['#/tokens', 'form'],
    ];
    const widths: Record<string, [number, number]> = {};
    for (const [hash, ready] of pages) {
      await go(hash);
      await page.locator(ready).first().waitFor();
      // Whatever else the page loads (resources, prompts, stderr) settled: its height stopped changing.
      let last = -1;
      await waitFor(
        async () => {
          const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
          const still = height === last;
          last = height;
          return still && (await page.evaluate("!document.querySelector('[aria-busy=true]')"));
        },
        { what: `${hash} settled` },
      );
      widths[hash] = (await page.evaluate(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      )) as [number, number];
    }
    for (const [hash, [scroll, client]] of Object.entries(widths)) {
      expect({ hash, scroll }).toEqual({ hash, scroll: Math.min(scroll, client) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors).toEqual([]);
  });
});
