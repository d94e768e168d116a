/**
 * The web UI against WCAG 2.2 AA (issue 19, accessibility), in a real headless Chromium
 * against the real service with real upstreams (server-everything, the rug-pull fixture and
 * the tiny server over stdio), a bot with a profile answering through the local
 * OpenAI-compatible fixture, and data on every page (a held tool, audit rows, a token, a
 * credential, a memory). axe-core, injected into the page, runs over every page the router
 * has, its folded parts opened, in light and dark, 1280 and 390 px wide: no violation. The pages are those of the
 * `Route` type in src/ui/use-route.ts: the ones listed here, then any page a link leads to,
 * and the test fails naming a page it could not reach. It prints the result per page. Then:
 * "Skip to chat" is a bot page's first Tab stop and puts focus in the message box; a page
 * loaded on demand says "Loading…" and focus is on its heading once it is there; the
 * breadcrumb link and the focus ring meet their contrast, from computed styles. (A chat's
 * streamed answer announced once: test/ui/components/chat-announce.test.ts.) With
 * `UPDATE_SCREENSHOTS=1` it writes docs/ui/skip-to-chat.png (the link focused on a bot page).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeSummary, runAxe } from '../support/axe-run.js';
import { backdrop, backgroundsOf, contrastRatio } from '../support/contrast-ratio.js';
import { launchChromium } from '../support/find-chromium.js';
import { fixtureServer, TINY_SERVER } from '../support/fixtures.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const RUG_SERVER = fixtureServer('rug-pull-server.mjs');
const ROUTER = fileURLToPath(new URL('../../src/ui/use-route.ts', import.meta.url));
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/ui/', import.meta.url)) : null;

/** The kinds of page the router knows (`page: '…'` in its `Route` type). */
const routeKinds = (): string[] => {
  const source = readFileSync(ROUTER, 'utf8');
  const union = /export type Route =([\s\S]*?);\n/.exec(source)?.[1] ?? '';
  return [...new Set([...union.matchAll(/page: '([\w-]+)'/g)].map((m) => m[1] ?? ''))];
};

/** A page to visit: its fragment, what shows it has its content, and the buttons that open its forms (scanned open). */
type Visit = { hash: string; ready: string | null; opens?: readonly string[] };
/** The pages with their data; a page not here is reached by a link and checked once settled. */
const VISITS: Readonly<Record<string, Visit>> = {
  servers: { hash: '#/servers', ready: 'tr[data-server][data-state="connected"]' },
  server: { hash: '#/servers/everything', ready: '[data-tool]', opens: ['Edit settings'] },
  quarantines: { hash: '#/quarantines', ready: '[data-quarantine="rug/calc"]' },
  audit: { hash: '#/audit', ready: 'table.audit tbody tr' },
  tokens: { hash: '#/tokens', ready: 'tr[data-token]' },
  credentials: { hash: '#/credentials', ready: 'tr[data-credential]' },
  config: { hash: '#/config', ready: 'pre.json' },
  // On SQLite the one replica (a fleet's page, offered in the navigation only in cluster mode).
  cluster: { hash: '#/cluster', ready: 'tr[data-replica]' },
  bots: { hash: '#/bots', ready: 'tr[data-bot="scout"]', opens: ['New bot'] },
  bot: { hash: '#/bots/scout', ready: 'label.switch', opens: ['Edit profile', 'New skill', 'New workflow'] },
};
const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [1280, 390] as const;

describe('the web UI at WCAG 2.2 AA', { timeout: 300_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let browser: Browser;
  let page: Page;
  const inFlight = new Set<unknown>();
  const pageErrors: string[] = [];
  const results: Record<string, (AxeSummary & { variant: string })[]> = {};
  const json = { 'content-type': 'application/json' };
  const go = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  /** Load the page afresh at `hash` (focus at the top of the document), signed in. */
  const open = async (hash: string) => {
    await page.goto(`${svc.service.url}/${hash}`);
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await nav.or(page.getByLabel('Admin token')).waitFor();
    if (await nav.isVisible()) return;
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await nav.waitFor();
  };
  /** The page has its content: `ready` shows, nothing says "Loading…", no request of the page's is pending. */
  const settled = (ready: string | null, what: string) =>
    waitFor(
      async () => {
        const shown = ready === null || (await page.locator(ready).count()) > 0;
        const loading = await page.locator('.loading').count();
        if (shown && loading === 0 && inFlight.size === 0) return true;
        throw new Error(
          `shown ${shown}, ${loading} loading, ${[...inFlight].map((r) => (r as { url(): string }).url()).join(' ')} pending`,
        );
      },
      { what, timeoutMs: 20_000 },
    );

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    svc = await startTestService({
      mcpServers: {
        everything: { preset: 'everything' },
        rug: { command: process.execPath, args: [RUG_SERVER] },
        tiny: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'every server connected',
      timeoutMs: 30_000,
    });
    const ok = async (path: string, method: string, body: unknown) => {
      const answer = await svc.api(path, { method, headers: json, body: JSON.stringify(body) });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    };
    await ok('/api/bots', 'POST', { slug: 'scout', name: 'Scout', provider: { baseUrl: fixture.baseUrl, model: 'm' } });
    await ok('/api/bots/scout/memories', 'POST', { content: 'Prefers short answers.', category: 'preferences' });
    await ok('/api/tokens', 'POST', { name: 'ci-agent' });
    await ok('/api/credentials/openai-key', 'PUT', { value: 'sk-a11y-test-value' });
    await ok('/api/servers/everything/tools/get-sum/call', 'POST', { arguments: { a: 2, b: 3 } });
    await ok('/api/servers/rug/tools/mutate/call', 'POST', { arguments: {} });
    await waitFor(async () => JSON.stringify((await svc.api('/api/quarantines')).body).includes('calc'), {
      what: 'calc held',
    });
    browser = await launchChromium();
    // The UI's CSP runs only its own scripts; axe is injected inline.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // What a page loads: its file and its data (not the event stream, which stays open).
    const counted = (url: string) =>
      /^\/(api|ui\/assets)\//.test(new URL(url).pathname) && !new URL(url).pathname.startsWith('/api/events');
    page.on('request', (r) => {
      if (counted(r.url())) inFlight.add(r);
    });
    page.on('requestfinished', (r) => inFlight.delete(r));
    page.on('requestfailed', (r) => inFlight.delete(r));
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await fixture?.close();
    const lines = Object.entries(results).map(
      ([name, runs]) =>
        `${name}: ${runs.map((r) => `${r.variant} ${r.violations.length} violations / ${r.nodesChecked} nodes`).join(', ')}` +
        ` (incomplete: ${[...new Set(runs.flatMap((r) => r.incomplete))].join(', ') || 'none'})`,
    );
    console.log(`axe at WCAG 2.2 AA, per page:\n${lines.join('\n')}`);
  });

  /** axe over the page, every folded part opened (a tool's line, its form, a call's result), in light and dark, wide and narrow. */
  const scan = async (name: string) => {
    // A tool's line opens with its button (the tool inventory), then its folded parts with the rest.
    await page.evaluate(
      `document.querySelectorAll('button.disclose[aria-expanded="false"]').forEach((b) => b.click())`,
    );
    await page.evaluate("document.querySelectorAll('details:not([open])').forEach((d) => { d.open = true; })");
    await settled(null, `${name} with its folded parts open`);
    const runs: (AxeSummary & { variant: string })[] = [];
    for (const colorScheme of SCHEMES)
      for (const width of WIDTHS) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        // Two frames rendered at the new size: what follows a resize (a box's ResizeObserver) has run.
        await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
        runs.push({ ...(await runAxe(page)), variant: `${colorScheme} ${width}` });
      }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    results[name] = runs;
    return runs.flatMap((r) => r.violations.map((v) => `${name} (${r.variant}): ${v}`));
  };

  it('every page, light and dark, 1280 and 390 px wide: no axe violation', async () => {
    const { parseRoute } = (await import(ROUTER)) as { parseRoute(hash: string): { page: string } };
    const violations: string[] = [];
    // Signed out: the sign-in page, and the one a spent link leads to.
    await page.goto(`${svc.service.url}/`);
    await page.getByLabel('Admin token').waitFor();
    violations.push(...(await scan('sign-in')));
    await go('#/sign-in/link-refused');
    await page.getByRole('alert').waitFor();
    violations.push(...(await scan('link-refused')));
    const seen = new Set(['link-refused']);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    // Signed in: the pages listed, then any other a link leads to.
    const queue: (Visit & { kind: string })[] = Object.entries(VISITS).map(([kind, visit]) => ({ kind, ...visit }));
    for (let next = queue.shift(); next; next = queue.shift()) {
      expect(parseRoute(next.hash).page, next.hash).toBe(next.kind);
      seen.add(next.kind);
      await go(next.hash);
      await settled(next.ready, `${next.kind} (${next.hash}) with its content`);
      // Its forms open too (a bot's profile, a skill, a workflow; a server's settings).
      for (const name of next.opens ?? []) await page.getByRole('button', { name, exact: true }).click();
      violations.push(...(await scan(next.kind)));
      const hrefs = (await page.evaluate(
        "[...document.querySelectorAll('a[href^=\"#/\"]')].map((a) => a.getAttribute('href'))",
      )) as string[];
      for (const hash of hrefs) {
        const kind = parseRoute(hash).page;
        if (!seen.has(kind) && !queue.some((q) => q.kind === kind)) queue.push({ kind, hash, ready: null });
      }
    }
    const missing = routeKinds().filter((kind) => !seen.has(kind));
    expect(missing, 'pages of the router no link leads to: add them to VISITS').toEqual([]);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("a bot page's first Tab stop is 'Skip to chat', which puts focus in the message box", async () => {
    await open('#/bots/scout');
    await settled('#chat-message', 'the bot page with its chat');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to chat');
    // Shown while focused, in the window.
    const box = await page.locator(':focus').boundingBox();
    expect(box && box.x >= 0 && box.y >= 0).toBe(true);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'skip-to-chat.png') });
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('chat-message');
    // Elsewhere, no such stop: the first is "Skip to content".
    await open('#/servers');
    await settled(VISITS.servers?.ready ?? null, 'the servers page reloaded');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
  });

  it('a page loaded on demand: "Loading…" until its file is there, and focus on its heading once it is', async () => {
    await open('#/servers');
    await settled(VISITS.servers?.ready ?? null, 'the servers page');
    await page.evaluate(`(() => {
      window.loadingShown = false;
      new MutationObserver(() => {
        if (document.querySelector('main .loading[role=status]')?.textContent === 'Loading…') window.loadingShown = true;
      }).observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true });
    })()`);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Audit' }).click();
    await settled(VISITS.audit?.ready ?? null, 'the audit page');
    expect(await page.evaluate('[document.activeElement.tagName, document.activeElement.textContent]')).toEqual([
      'H1',
      'Audit',
    ]);
    expect(await page.evaluate('window.loadingShown')).toBe(true);
  });

  it("the live updates banner's text is 4.5:1 on its background, light and dark", async () => {
    await open('#/servers');
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      // The banner as the page draws it when the event stream drops (app.tsx's StreamNote), with the real style sheet.
      const [color, behind] = (await page.evaluate(`(() => {
        const note = document.createElement('p');
        note.className = 'banner';
        note.textContent = 'Live updates interrupted: reconnecting…';
        document.querySelector('main').prepend(note);
        const s = getComputedStyle(note);
        const pair = [s.color, s.backgroundColor];
        note.remove();
        return pair;
      })()`)) as [string, string];
      expect(contrastRatio(color, behind), colorScheme).toBeGreaterThanOrEqual(4.5);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the breadcrumb link is 4.5:1 on its background and underlined; the focus ring 3:1 on what is around it', async () => {
    const figures: Record<string, number> = {};
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      await open('#/bots/scout');
      await settled('#chat-message', 'the bot page');
      const crumb = (await page.evaluate(
        "(() => { const s = getComputedStyle(document.querySelector('h1 .crumb')); return [s.color, s.textDecorationLine]; })()",
      )) as [string, string];
      const behind = backdrop((await page.evaluate(backgroundsOf("document.querySelector('h1 .crumb')"))) as string[]);
      figures[`crumb ${colorScheme}`] = contrastRatio(crumb[0], behind);
      expect(figures[`crumb ${colorScheme}`]).toBeGreaterThanOrEqual(4.5);
      // Told from the heading's text around it by more than colour (WCAG 1.4.1).
      expect(crumb[1]).toContain('underline');
      // The ring of each of the first Tab stops (in the header) and of the message box (in the page).
      const rings: [string, number][] = [];
      const ring = async () => {
        const [color, style, width, name] = (await page.evaluate(
          '(() => { const s = getComputedStyle(document.activeElement); return [s.outlineColor, s.outlineStyle, parseFloat(s.outlineWidth), document.activeElement.textContent || document.activeElement.id]; })()',
        )) as [string, string, number, string];
        expect(style, name).not.toBe('none');
        expect(width, name).toBeGreaterThanOrEqual(2);
        // The ring is drawn outside the element (outline-offset): on what is behind the element.
        const around = backdrop(
          (await page.evaluate(backgroundsOf('document.activeElement.parentElement'))) as string[],
        );
        rings.push([name, contrastRatio(color, around)]);
      };
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        await ring();
      }
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.id')).toBe('chat-message');
      await ring();
      for (const [name, ratio] of rings) {
        figures[`ring ${colorScheme} ${name}`] = ratio;
        expect(ratio, `${colorScheme} focus ring on ${name}`).toBeGreaterThanOrEqual(3);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    console.log(
      `contrast: ${Object.entries(figures)
        .map(([k, v]) => `${k} ${v.toFixed(2)}:1`)
        .join(', ')}`,
    );
  });
});
