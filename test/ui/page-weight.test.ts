/**
 * What the web UI costs on the wire (issue 19, assets), measured in a real headless Chromium
 * against a real `bnity serve` with two real upstreams: the bytes of every response as the
 * browser's network stack counted them (CDP `Network.loadingFinished.encodedDataLength`:
 * headers and the body as sent, compressed), on a first load with an empty cache and on a
 * reload with a warm one. The script and style sheet are named by their content's hash and
 * cached for good, so the reload asks only for the page, which answers 304 by its ETag. It
 * prints the figures (docs/ui.md has them).
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

const STATIC_TYPES = new Set(['Document', 'Script', 'Stylesheet']);

describe('the web UI on the wire', { timeout: 60_000 }, () => {
  let home: string;
  let serve: ServeProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  const seen = new Map<string, Seen>();
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-weight-'));
    const tiny = { command: process.execPath, args: [TINY_SERVER] };
    await writeFile(join(home, 'boternity.json'), JSON.stringify({ mcpServers: { tiny, other: tiny } }));
    serve = await spawnServe(['--port', '0', '--home', home, '--config', join(home, 'boternity.json')], {
      BOTERNITY_ADMIN_TOKEN: 'page-weight-admin-token',
    });
    browser = await launchChromium();
    context = await browser.newContext();
    // Signed in without opening the page (its cookie is the context's), so the first load is cold.
    const link = /web UI\s+(\S+)/.exec(serve.stdout())?.[1] ?? '';
    expect((await context.request.get(link, { maxRedirects: 0 })).status()).toBe(303);
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    const entry = (id: string) => seen.get(id);
    cdp.on('Network.requestWillBeSent', (e) => {
      seen.set(e.requestId, {
        url: e.request.url,
        type: e.type ?? '',
        status: 0,
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

  /** Run `load`, wait for both servers' rows and for every request but the event stream to end; weigh it. */
  const weigh = async (load: () => Promise<unknown>): Promise<{ weight: Weight; responses: Seen[] }> => {
    seen.clear();
    await load();
    await waitFor(async () => (await page.locator('tr[data-server][data-state="connected"]').count()) === 2, {
      what: 'both servers connected on the page',
    });
    await waitFor(() => [...seen.values()].every((s) => s.done || s.type === 'EventSource'), {
      what: 'every request but the event stream done',
    });
    const responses = [...seen.values()];
    const sum = (pick: (s: Seen) => boolean) =>
      responses.filter((s) => pick(s) && !s.cached).reduce((total, s) => total + s.bytes, 0);
    const weight = {
      static: sum((s) => STATIC_TYPES.has(s.type)),
      api: sum((s) => s.type === 'Fetch' || s.type === 'XHR'),
      events: sum((s) => s.type === 'EventSource'),
      total: sum((s) => s.type !== 'EventSource'),
      requests: responses.filter((s) => !s.cached).length,
    };
    return { weight, responses };
  };
  const path = (s: Seen) => new URL(s.url).pathname;

  it('first load with an empty cache: the page, its hashed script and style sheet, gzip, under 40 KB', async () => {
    const { weight, responses } = await weigh(() => page.goto(`${serve.url}/`));
    figures.firstLoad = weight;
    figures.firstLoadResponses = responses.map((s) => `${s.type} ${path(s)} ${s.status} ${s.bytes} B`);
    const files = responses.filter((s) => STATIC_TYPES.has(s.type));
    expect(files.map((s) => `${s.type} ${path(s).replace(/\.[A-Z2-7]{8}\./, '.<hash>.')} ${s.status}`).sort()).toEqual([
      'Document / 200',
      'Script /ui/assets/app.<hash>.js 200',
      'Stylesheet /ui/assets/style.<hash>.css 200',
    ]);
    expect(weight.static).toBeLessThanOrEqual(40_000);
  });

  it('a reload with a warm cache asks only for the page (304), its data answers 304 too, under 2 KB in all', async () => {
    const { weight, responses } = await weigh(() => page.reload());
    figures.warmReload = weight;
    figures.warmReloadResponses = responses.map(
      (s) => `${s.type} ${path(s)} ${s.cached ? 'cache' : s.wireStatus} ${s.cached ? 0 : s.bytes} B`,
    );
    const fromNetwork = responses.filter((s) => STATIC_TYPES.has(s.type) && !s.cached);
    expect(fromNetwork.map((s) => `${s.type} ${path(s)} ${s.wireStatus}`)).toEqual(['Document / 304']);
    expect(weight.static).toBeLessThanOrEqual(2_048);
    expect(weight.static).toBeGreaterThan(0);
    // The API's answers the page asks for again are tagged: what did not change is a 304 too.
    const presets = responses.find((s) => path(s) === '/api/presets');
    expect(presets?.wireStatus).toBe(304);
    // The page, its files and the API's answers, all told (the event stream's data aside).
    expect(weight.total).toBeLessThanOrEqual(2_048);
  });
});
