/**
 * The tool inventory that scales (issue 19), in a real headless Chromium against the real
 * service with a real stdio upstream that lists 300 tools (`many-tools-server.mjs`) and one
 * with one tool (`tiny`): a filter box on a server's page and on a bot's tab (name and
 * description, any case, "N of M tools"); every tool one line until opened, its schema and
 * test form rendered only then; "allow all / deny all" per server on the bot, written through
 * the API (its lists read back) and shown by the switches; switches named with their server;
 * no axe-core violation (WCAG 2.2 AA) in the inventory with rows open; and the two targets,
 * timed in the page (test/support/measure-in-page.ts) and from a Chromium trace
 * (test/support/trace-main-thread.ts): the bot's tab painted with its 301 tools ≤ 150 ms after
 * their data arrived, and a filter keystroke's work under 16 ms. The figures are printed
 * (docs/performance.md). With `UPDATE_SCREENSHOTS=1`
 * it writes docs/ui/tool-inventory.png (a filtered list).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, TINY_SERVER } from '../../support/fixtures.js';
import { quantile, RECORD_KEYSTROKES, timeRender } from '../../support/measure-in-page.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { traceMainThread } from '../../support/trace-main-thread.js';
import { waitFor } from '../../support/wait-for.js';

const MANY_SERVER = fixtureServer('many-tools-server.mjs');
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The targets of issue 19. */
const RENDER_MS = 150;
const KEYSTROKE_MS = 16;

type Lists = { allowed?: string[]; denied?: string[] };
type Keystroke = { work: number; frame: number };
type Rendered = { arrived: number; committed: number; painted: number; sync: number; fetches: number };

describe('the tool inventory in a real browser', { timeout: 120_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const until = (expression: string, what: string, timeoutMs = 15_000) =>
    waitFor(() => page.evaluate(expression), { what, timeoutMs });
  const go = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  const permissionsOf = async (server: string) =>
    (await svc.api<{ bot: { view: { toolPermissions: Record<string, Lists> } | null } }>('/api/bots/scout')).body.bot
      .view?.toolPermissions[server];
  /** Type `text` into the focused search box a key at a time, each keystroke timed before the next. */
  const typeTimed = async (keys: string[]) => {
    for (const key of keys) {
      const before = (await page.evaluate('window.keystrokes.length')) as number;
      await page.keyboard.press(key);
      await until(`window.keystrokes.length > ${before}`, `keystroke ${key} timed`);
    }
  };
  /** axe-core's WCAG 2.2 AA violations inside the tool inventory's section, as `rule: count`. */
  const axeViolations = async () => {
    await page.evaluate(await readFile(AXE, 'utf8'));
    return (await page.evaluate(`axe.run(document.querySelector('section.tool-inventory'), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.length))`)) as string[];
  };
  const group = (server: string) => page.locator(`fieldset[data-server="${server}"]`);
  const checkedIn = (server: string) =>
    page.evaluate(
      `document.querySelectorAll('fieldset[data-server="${server}"] input[role=switch]:checked').length`,
    ) as Promise<number>;

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        many: { command: process.execPath, args: [MANY_SERVER] },
        tiny: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'both servers connected',
      timeoutMs: 30_000,
    });
    const made = await svc.send('POST', '/api/bots', { slug: 'scout', name: 'Scout' });
    expect(made.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await until("document.querySelectorAll('tr[data-state=connected]').length === 2", 'two connected rows');
    await page.evaluate(RECORD_KEYSTROKES);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it("a server's page: 300 tools one line each; the filter matches names and descriptions in any case", async () => {
    await go('#/servers/many');
    const rows = page.locator('div.tool-row');
    await until("document.querySelectorAll('div.tool-row').length === 300", '300 rows');
    expect(await page.locator('#filter-tools-count').textContent()).toBe('300 tools');
    // Collapsed: nothing of what is inside is rendered, not even hidden.
    expect(await page.locator('div.tool-row button[aria-expanded=true]').count()).toBe(0);
    expect(await page.locator('section.tool-inventory table').count()).toBe(0);
    const first = rows.first();
    expect(await first.getByRole('button').textContent()).toBe('read_file_1 Reads a file of the store, number 1.');
    await page.getByLabel('Filter tools').fill('SEARCH_ticket');
    await page.getByText('3 of 300 tools').waitFor();
    expect(await page.locator('div.tool-row:not([hidden])').evaluateAll((d) => d.map((e) => e.dataset.tool))).toEqual([
      'search_ticket_54',
      'search_ticket_154',
      'search_ticket_254',
    ]);
    // Words anywhere, in the description too: "Copies" is in no name.
    await page.getByLabel('Filter tools').fill('copies invoice');
    await page.getByText('3 of 300 tools').waitFor();
    // No row holds every word of a task typed in words: the search's best matches (issue 24).
    await page.getByLabel('Filter tools').fill('watch the invoices');
    await page.getByText(/^no tool holds every word: the \d+ best matches of 300 tools$/).waitFor();
    expect(await page.locator('div.tool-row:not([hidden])').evaluateAll((d) => d.map((e) => e.dataset.tool))).toEqual(
      expect.arrayContaining(['watch_invoice_78', 'watch_invoice_178', 'watch_invoice_278']),
    );
    await page.getByLabel('Filter tools').fill('no such tool');
    await page.getByText('No tool matches “no such tool”.').waitFor();
    await page.getByLabel('Filter tools').fill('');
    await page.getByText('300 tools', { exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('a row opens to its description, schema and test form, which runs the tool', async () => {
    const row = page.locator('div.tool-row[data-tool="lock_note_89"]');
    const opener = row.getByRole('button', { name: /^lock_note_89 Locks a note/ });
    expect(await opener.getAttribute('aria-expanded')).toBe('false');
    await opener.click();
    expect(await opener.getAttribute('aria-expanded')).toBe('true');
    await row.locator('table').waitFor();
    expect(await row.locator('table').textContent()).toContain("The note's id");
    expect(await row.locator('.prose').first().textContent()).toContain('over more than one sentence');
    await row.getByText('Try lock_note_89').click();
    await row.getByLabel('id', { exact: true }).fill('n-7');
    await row.getByRole('button', { name: 'Run lock_note_89' }).click();
    await row.locator('.result').getByText('lock_note_89 {"id":"n-7","mode":"safe"}').waitFor();
    // Filtered out and back, it is still open with its result: hidden, not thrown away.
    await page.getByLabel('Filter tools').fill('read');
    await row.waitFor({ state: 'hidden' });
    await page.getByLabel('Filter tools').fill('');
    await row.locator('.result').waitFor();
    expect(await page.locator('div.tool-row table').count()).toBe(1);
    expect(await axeViolations()).toEqual([]);
  });

  it('the bot page paints its 301 tools within 150 ms of their data arriving', async () => {
    /** Come to the bot's tab from the servers list; its figures, traced or not. */
    const visit = async (traced: boolean) => {
      await go('#/servers');
      await until("document.querySelectorAll('tr[data-state=connected]').length === 2", 'the servers list');
      const trace = traced ? await traceMainThread(page) : null;
      await page.evaluate(timeRender('#/bots/scout', 'li.tool-row', 301, /^\/api\/servers\/[^/]+\/tools$/));
      const rendered = (await until('window.rendered', 'the bot page painted')) as Rendered;
      expect(rendered.fetches).toBe(2);
      const sync = { name: 'inventory-painted', atMs: rendered.sync };
      return {
        wall: rendered.painted - rendered.arrived,
        dom: rendered.committed - rendered.arrived,
        cpu: trace ? (await trace.stop()).cpuBetween(rendered.arrived, rendered.painted, sync) : Number.NaN,
      };
    };
    // The first visit runs code V8 has not optimised yet; the others come back to the tab.
    const plain = [];
    for (let run = 0; run < 5; run += 1) plain.push(await visit(false));
    const traced = [];
    for (let run = 0; run < 5; run += 1) traced.push(await visit(true));
    const wall = plain.map((v) => v.wall);
    const cpu = traced.map((v) => v.cpu);
    const list = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
    console.log(
      `bot page, 301 tools, their data's arrival → painted (ms), 5 visits: wall ${list(wall)} (median ${quantile(wall, 0.5).toFixed(1)}; in the DOM ${list(plain.map((v) => v.dom))}); 5 more, traced: main-thread CPU ${list(cpu)} (wall ${list(traced.map((v) => v.wall))})`,
    );
    expect(Math.min(...cpu)).toBeGreaterThan(0);
    // The page's own work, whatever else the machine runs; and painted in time at least once
    // (on a quiet machine, every time: see docs/performance.md).
    expect(Math.max(...cpu)).toBeLessThanOrEqual(RENDER_MS);
    expect(Math.min(...wall)).toBeLessThanOrEqual(RENDER_MS);
  });

  it('filtering the bot page takes under 16 ms a keystroke', async () => {
    await page.getByLabel('Filter tools').focus();
    await page.evaluate('window.keystrokes.length = 0');
    const trace = await traceMainThread(page);
    // Narrowing, then widening back to everything (the rows that come back are the costly way).
    await typeTimed([...'search ticket'].map((c) => (c === ' ' ? 'Space' : c)));
    await page.getByText('3 of 301 tools').waitFor();
    await typeTimed(Array(13).fill('Backspace'));
    await page.getByText('301 tools', { exact: true }).waitFor();
    await typeTimed([...'write']);
    await page.getByText('30 of 301 tools').waitFor();
    const dispatches = (await trace.stop()).dispatches(['input']);
    const strokes = (await page.evaluate('window.keystrokes')) as Keystroke[];
    if (SHOTS) {
      await page.evaluate("document.getElementById('bot-tools-title').scrollIntoView()");
      await page.getByRole('button', { name: /^About write_issue_12:/ }).click();
      await page.screenshot({ path: join(SHOTS, 'tool-inventory.png') });
      await page.getByRole('button', { name: /^About write_issue_12:/ }).click();
    }
    await page.getByLabel('Filter tools').fill('');
    expect(strokes).toHaveLength(31);
    expect(dispatches).toHaveLength(31);
    const cpu = dispatches.map((d) => d.cpuMs);
    const work = strokes.map((s) => s.work);
    const frame = strokes.map((s) => s.frame);
    const ms = (values: number[]) =>
      `p50 ${quantile(values, 0.5).toFixed(1)}, p95 ${quantile(values, 0.95).toFixed(1)}, max ${Math.max(...values).toFixed(1)}`;
    console.log(
      `bot page filter, 31 keystrokes over 301 tools (ms): main-thread CPU per input event ${ms(cpu)}; wall time of the same work ${ms(work)}; key to the next painted frame ${ms(frame)}`,
    );
    expect(quantile(cpu, 0.95)).toBeLessThan(KEYSTROKE_MS);
  });

  it("a bot's switches are named with their server; a row opens to the tool's schema", async () => {
    const echo = page.getByRole('switch', { name: 'echo (tiny) allowed', exact: true });
    expect(await echo.isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'read_file_1 (many) allowed', exact: true }).isChecked()).toBe(true);
    const row = page.locator('li.tool-row[data-tool="tiny/echo"]');
    expect(await row.locator('table').count()).toBe(0);
    await row.getByText('Returns its text argument').click();
    expect(await row.locator('table').textContent()).toContain('text');
    expect(await axeViolations()).toEqual([]);
    await page.getByLabel('Filter tools').fill('RETURNS its');
    await page.getByText('1 of 301 tools').waitFor();
    expect(await group('many').locator('legend').textContent()).toBe('many 0 of 300 tools');
    await page.getByLabel('Filter tools').fill('');
  });

  it('deny all / allow all per server: the lists written, every switch following', async () => {
    await group('many').getByRole('button', { name: 'Deny all tools of many' }).click();
    await waitFor(async () => (await permissionsOf('many'))?.denied?.length === 300, { what: '300 denied' });
    await group('many').getByRole('button', { name: 'Deny all tools of many' }).and(page.locator(':enabled')).waitFor();
    expect(await checkedIn('many')).toBe(0);
    expect(await checkedIn('tiny')).toBe(1);
    await page.getByRole('switch', { name: 'read_file_1 (many) denied', exact: true }).waitFor();
    // One back on: out of the denied list, the others still denied.
    await page.getByRole('switch', { name: 'read_file_1 (many) denied', exact: true }).check();
    await waitFor(async () => (await permissionsOf('many'))?.denied?.length === 299, { what: '299 denied' });
    await page
      .getByRole('switch', { name: 'read_file_1 (many) allowed', exact: true })
      .and(page.locator(':enabled'))
      .waitFor();
    expect(await checkedIn('many')).toBe(1);
    await group('many').getByRole('button', { name: 'Allow all tools of many' }).click();
    await waitFor(async () => (await permissionsOf('many')) === undefined, { what: "many's lists dropped" });
    await group('many')
      .getByRole('button', { name: 'Allow all tools of many' })
      .and(page.locator(':enabled'))
      .waitFor();
    expect(await checkedIn('many')).toBe(300);
    await group('tiny').getByRole('button', { name: 'Deny all tools of tiny' }).click();
    // The switch shows the state asked for at once; the answer is in when the buttons are enabled again.
    await waitFor(async () => (await permissionsOf('tiny'))?.denied?.length === 1, { what: "tiny's echo denied" });
    await group('tiny').getByRole('button', { name: 'Deny all tools of tiny' }).and(page.locator(':enabled')).waitFor();
    expect(await page.getByRole('switch', { name: 'echo (tiny) denied', exact: true }).isChecked()).toBe(false);
    expect(await permissionsOf('tiny')).toEqual({ denied: ['echo'] });
    expect(await checkedIn('many')).toBe(300);
    expect(pageErrors).toEqual([]);
  });

  it('a refused edit says why in one line and every switch stays as it was', async () => {
    const good = await readFile(svc.configPath, 'utf8');
    await writeFile(svc.configPath, '{ "mcpServers": ');
    try {
      await group('tiny').getByRole('button', { name: 'Allow all tools of tiny' }).click();
      const alert = page.locator('section.tool-inventory [role=alert]');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/^Could not allow every tool of tiny: [^\n]+$/);
      expect(await page.getByRole('switch', { name: 'echo (tiny) denied', exact: true }).isChecked()).toBe(false);
      expect(await checkedIn('many')).toBe(300);
    } finally {
      await writeFile(svc.configPath, good);
    }
    await waitFor(async () => (await permissionsOf('tiny'))?.denied?.includes('echo'), { what: 'echo still denied' });
  });

  it('at 390 px wide neither page scrolls sideways, rows open', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    try {
      const sideways = () => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;
      await page.getByRole('button', { name: /^About read_file_1:/ }).click();
      await page.locator('li.tool-row[data-tool="many/read_file_1"] table').waitFor();
      expect(await sideways()).toBeLessThanOrEqual(390);
      await go('#/servers/many');
      const opener = page.getByRole('button', { name: /^search_ticket_54 / });
      await opener.click();
      await page.locator('div.tool-row[data-tool="search_ticket_54"] table').waitFor();
      expect(await sideways()).toBeLessThanOrEqual(390);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(pageErrors).toEqual([]);
  });
});
