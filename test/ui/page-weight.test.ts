/**
 * What the web UI costs on the wire (issue 19, assets), measured in a real headless Chromium
 * against a real `bnity serve` with two real upstreams: the bytes of every response as the
 * browser's network stack counted them (CDP `Network.loadingFinished.encodedDataLength`:
 * headers and the body as sent, compressed), on a first load with an empty cache and on a
 * reload with a warm one. The script, its chunks and the style sheet are named by their
 * content's hash and cached for good, so the reload asks only for the page, which answers 304
 * by its ETag. Every page but the servers list and the sign-in is its own file (ADR 027):
 * the first visit to a page fetches it once, the next ones nothing. It prints the figures
 * (docs/ui.md has them).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/find-chromium.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';
import { waitFor } from '../support/wait-for.js';

/** One response as the browser got it. */
type Seen = {
  url: string;
  type: string;
  status: number;
  /** The status line that came over the network (304 for a page revalidated by its ETag). */
  wireStatus?: number;
  /** The document load it belongs to: a reload's requests have the new document's. */
  loaderId: string;
  /** Served by the browser's cache, with no request on the network. */
  cached: boolean;
  /** Bytes received for it (headers and body, as sent); for a stream still open, so far. */
  bytes: number;
  done: boolean;
};

/**
 * The bytes of a load by kind: the page and its files, the API's answers, and the event
 * stream's bytes counted so far (its snapshot may still be arriving: a figure, not asserted).
 * `total` is the page, its files and the API's answers.
 */
type Weight = { static: number; api: number; events: number; total: number; requests: number };

/** The page and its files (a chunk preloaded by the page is reported as `Other` by some builds). */
const isStatic = (s: { url: string }) => {
  const path = new URL(s.url).pathname;
  return path === '/' || path.startsWith('/ui/assets/');
};
const BOT = 'weigh-bot';

describe('the web UI on the wire', { timeout: 60_000 }, () => {
  let home: string;
  let serve: ServeProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  const seen = new Map<string, Seen>();
  // The status on the wire, by request: Chromium may send it before the request's own event.
  const wireStatuses = new Map<string, number>();
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-weight-'));
    const tiny = { command: process.execPath, args: [TINY_SERVER] };
    await writeFile(join(home, 'boternity.json'), JSON.stringify({ mcpServers: { tiny, other: tiny } }));
    serve = await spawnServe(['--port', '0', '--home', home, '--config', join(home, 'boternity.json')], {
      BOTERNITY_ADMIN_TOKEN: 'page-weight-admin-token',
    });
    // A bot with a profile, so its page has its chat (no message is sent: the provider is never asked).
    const made = await fetch(`${serve.url}/api/bots`, {
      method: 'POST',
      headers: { authorization: 'Bearer page-weight-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ slug: BOT, name: 'Weigh', provider: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } }),
    });
    expect(made.status).toBe(201);
    browser = await launchChromium();
    context = await browser.newContext();
    // Signed in without opening the page (its cookie is the context's), so the first load is cold.
    const link = /web UI\s+(\S+)/.exec(serve.stdout())?.[1] ?? '';
    expect((await context.request.get(link, { maxRedirects: 0 })).status()).toBe(303);
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    const entry = (id: string) => seen.get(id);
    cdp.on('Network.requestWillBeSent', (e) => {
      const wireStatus = wireStatuses.get(e.requestId);
      seen.set(e.requestId, {
        url: e.request.url,
        type: e.type ?? '',
        loaderId: e.loaderId,
        status: 0,
        ...(wireStatus === undefined ? {} : { wireStatus }),
        cached: false,
        bytes: 0,
        done: false,
      });
    });
    cdp.on('Network.requestServedFromCache', (e) => {
      const s = entry(e.requestId);
      if (s) s.cached = true;
    });
    cdp.on('Network.responseReceived', (e) => {
      const s = entry(e.requestId);
      if (!s) return;
      s.status = e.response.status;
      s.cached ||= Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache);
      s.bytes = e.response.encodedDataLength;
    });
    // The status on the wire: a revalidated page is reported as its cached 200 elsewhere.
    cdp.on('Network.responseReceivedExtraInfo', (e) => {
      wireStatuses.set(e.requestId, e.statusCode);
      const s = entry(e.requestId);
      if (s) s.wireStatus = e.statusCode;
    });
    cdp.on('Network.dataReceived', (e) => {
      const s = entry(e.requestId);
      if (s && !s.done) s.bytes += e.encodedDataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const s = entry(e.requestId);
      if (!s) return;
      s.bytes = e.encodedDataLength;
      s.done = true;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const s = entry(e.requestId);
      if (s) s.done = true;
    });
    await cdp.send('Network.enable');
  });
  afterAll(async () => {
    await browser?.close();
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    if (home) await rm(home, { recursive: true, force: true });
    console.log(`web UI on the wire: ${JSON.stringify(figures)}`);
  });

  /** The servers list shown: both servers' rows, and the add form's presets (its own request) in their list. */
  const serversShown = async () =>
    (await page.locator('tr[data-server][data-state="connected"]').count()) === 2 &&
    (await page.locator('#add-preset option').count()) > 1;
  /**
   * Run `load`, wait for `ready` (the servers list shown) and for every request but the event stream
   * to end; weigh it. A load that is a navigation (a reload) weighs the new document's requests
   * only: the previous page may still have had reads starting when it was left (a page's second
   * wave of reads, sent once its first answers are shown), and those are cancelled by the
   * navigation, some with no `loadingFailed` event, so waiting for them would never end.
   */
  const weigh = async (
    load: () => Promise<unknown>,
    ready: () => Promise<boolean> = serversShown,
  ): Promise<{ weight: Weight; responses: Seen[] }> => {
    seen.clear();
    await load();
    await waitFor(ready, { what: 'the page shown' });
    const loadedDocument = [...seen.values()].find((s) => s.type === 'Document')?.loaderId;
    const ofThisLoad = () => [...seen.values()].filter((s) => !loadedDocument || s.loaderId === loadedDocument);
    await waitFor(
      () => {
        const pending = ofThisLoad().filter((s) => !s.done && s.type !== 'EventSource');
        if (pending.length === 0) return true;
        throw new Error(`pending: ${pending.map((s) => `${s.type} ${new URL(s.url).pathname}`).join(', ')}`);
      },
      { what: 'every request but the event stream done' },
    );
    const responses = ofThisLoad();
    const sum = (pick: (s: Seen) => boolean) =>
      responses.filter((s) => pick(s) && !s.cached).reduce((total, s) => total + s.bytes, 0);
    const weight = {
      static: sum(isStatic),
      api: sum((s) => s.type === 'Fetch' || s.type === 'XHR'),
      events: sum((s) => s.type === 'EventSource'),
      total: sum((s) => s.type !== 'EventSource'),
      requests: responses.filter((s) => !s.cached).length,
    };
    return { weight, responses };
  };
  const path = (s: Seen) => new URL(s.url).pathname;

  it('first load with an empty cache: the page, its hashed script, its chunks and style sheet, gzip, under 40 KB', async () => {
    const { weight, responses } = await weigh(() => page.goto(`${serve.url}/`));
    figures.firstLoad = weight;
    figures.firstLoadResponses = responses.map((s) => `${s.type} ${path(s)} ${s.status} ${s.bytes} B`);
    const files = responses
      .filter(isStatic)
      .map((s) => `${path(s).replace(/\.[A-Z2-7]{8}\./, '.<hash>.')} ${s.status}`);
    figures.firstLoadFiles = files.length;
    // The page, its script and style sheet, and the chunks the script imports: no page loaded on demand.
    expect(new Set(files)).toEqual(
      new Set([
        '/ 200',
        '/ui/assets/app.<hash>.js 200',
        '/ui/assets/style.<hash>.css 200',
        '/ui/assets/chunk.<hash>.js 200',
      ]),
    );
    expect(files.filter((f) => f.startsWith('/ui/assets/chunk.')).length).toBe(files.length - 3);
    expect(weight.static).toBeLessThanOrEqual(40_000);
  });

  it('a reload with a warm cache asks only for the page (304), its data answers 304 too, under 2 KB in all', async () => {
    const { weight, responses } = await weigh(() => page.reload());
    figures.warmReload = weight;
    figures.warmReloadResponses = responses.map(
      (s) => `${s.type} ${path(s)} ${s.cached ? 'cache' : s.wireStatus} ${s.cached ? 0 : s.bytes} B`,
    );
    const fromNetwork = responses.filter((s) => isStatic(s) && !s.cached);
    expect(fromNetwork.map((s) => `${s.type} ${path(s)} ${s.wireStatus}`)).toEqual(['Document / 304']);
    expect(weight.static).toBeLessThanOrEqual(2_048);
    expect(weight.static).toBeGreaterThan(0);
    // The API's answers the page asks for again are tagged: what did not change is a 304 too.
    const presets = responses.find((s) => path(s) === '/api/presets');
    expect(presets?.wireStatus).toBe(304);
    // The page, its files and the API's answers, all told (the event stream's data aside).
    expect(weight.total).toBeLessThanOrEqual(2_048);
  });

  // Each page loaded on demand, by its fragment, and when it is shown (its heading, no "Loading…").
  const PAGES: readonly { hash: string; heading: string; file: string }[] = [
    { hash: '#/bots', heading: 'Bots', file: 'bots-page' },
    { hash: `#/bots/${BOT}`, heading: `Bots / ${BOT}`, file: 'bot-page' },
    { hash: '#/quarantines', heading: 'Quarantines', file: 'quarantines-page' },
    { hash: '#/audit', heading: 'Audit', file: 'audit-page' },
    { hash: '#/tokens', heading: 'Tokens', file: 'tokens-page' },
    { hash: '#/credentials', heading: 'Credentials', file: 'credentials-page' },
    { hash: '#/servers/tiny', heading: 'Servers / tiny', file: 'server-page' },
  ];
  const headingShown = async (heading: string) =>
    (await page.locator('h1').textContent()) === heading && (await page.locator('main .loading').count()) === 0;
  const visit = async (hash: string, heading: string, shown = () => headingShown(heading)) =>
    weigh(() => page.evaluate(`location.hash = ${JSON.stringify(hash)}`), shown);
  /**
   * The bot's page with its data shown, not only its heading: its parts (tools, chat, memories,
   * skills, workflows) send their reads once the bot's answer is shown, and a page left before
   * then leaves them in flight. Memories, skills and workflows are counted (no "…") and the tool
   * filter is there once the catalogs came; the chat's sessions are read with them.
   */
  const botShown = async () =>
    (await headingShown(`Bots / ${BOT}`)) &&
    (await page.locator('#chat-message').count()) === 1 &&
    (await page.locator('#filter-bot-tools').count()) === 1 &&
    counted(await page.locator('#bot-memories-title, #bot-skills-title, #bot-workflows-title').allTextContents());
  const counted = (titles: string[]) => titles.length === 3 && titles.every((title) => /\(\d+\)$/.test(title));

  it("each page's own file is fetched on its first visit, once; the next visits fetch no file", async () => {
    const fetched: Record<string, string[]> = {};
    for (const round of [1, 2])
      for (const { hash, heading, file } of PAGES) {
        const { responses } = await visit(hash, heading);
        const files = responses.filter((s) => isStatic(s) && !s.cached).map((s) => path(s));
        fetched[`${round} ${file}`] = files;
        if (round === 1) {
          // Its own file, and maybe a chunk it shares with a page not visited yet; never the servers list's.
          expect(files.filter((f) => f.startsWith(`/ui/assets/${file}.`))).toHaveLength(1);
          expect(files.every((f) => /^\/ui\/assets\/(chunk|[a-z-]+-page)\.[A-Z2-7]{8}\.js$/.test(f))).toBe(true);
        } else expect(files).toEqual([]);
      }
    const all = Object.values(fetched).flat();
    expect(new Set(all).size).toBe(all.length);
    figures.onDemand = Object.fromEntries(Object.entries(fetched).filter(([k]) => k.startsWith('1 ')));
  });

  it("a reload of a bot's page with a warm cache: the page 304 and its files from the cache (under 2 KB), its data 304s", async () => {
    await visit(`#/bots/${BOT}`, `Bots / ${BOT}`, botShown);
    const { weight, responses } = await weigh(() => page.reload(), botShown);
    figures.botWarmReload = weight;
    figures.botWarmReloadResponses = responses.map(
      (s) => `${s.type} ${path(s)} ${s.cached ? 'cache' : s.wireStatus} ${s.cached ? 0 : s.bytes} B`,
    );
    const fromNetwork = responses.filter((s) => isStatic(s) && !s.cached);
    expect(fromNetwork.map((s) => `${path(s)} ${s.wireStatus}`)).toEqual(['/ 304']);
    expect(weight.static).toBeLessThanOrEqual(2_048);
    // Its data is asked again (ten answers) but none is sent again: each is a 304 of headers only.
    const data = responses.filter((s) => path(s).startsWith('/api/') && s.type !== 'EventSource');
    expect(data.length).toBeGreaterThan(5);
    expect(data.filter((s) => s.wireStatus !== 304).map(path)).toEqual([]);
  });
});
