/**
 * Resources and prompts on a server's page (issue 19), in a real headless Chromium against
 * the real service, with a small SDK server (`catalog-server.mjs`: text, JSON and PNG
 * resources, a template, a prompt `greet` with completions) and server-everything as real
 * upstreams. Read: text shown sanitized in a block, JSON highlighted, a PNG as its type and
 * size with a Download link whose bytes are the server's. A template filled (the server's
 * suggestions in its datalist), then read. A prompt got with its arguments (suggestions as
 * the user types, narrowed by the other arguments), its messages by role; a missing
 * required argument, a value the server refuses and a prompt it no longer serves each
 * shown in one line. Suggestions are asked only of a server that declares completions.
 * With `UPDATE_SCREENSHOTS=1` it writes docs/ui/server-resources.png and docs/ui/server-prompt.png.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../../support/everything.js';
import { CATALOG_PIXEL, CATALOG_SERVER } from '../../support/fixtures.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const require = createRequire(import.meta.url);
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;

describe('resources and prompts on a server page in a real browser', { timeout: 120_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** The bodies of the completion requests the page sent, by server. */
  const completions: { server: string; body: Record<string, unknown> }[] = [];
  const go = async (hash: string) => {
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  };
  const resource = (uri: string) => page.locator(`li[data-resource="${uri}"]`);
  const prompt = (name: string) => page.locator(`li[data-prompt="${name}"]`);
  /** The values a field's datalist offers, once they are `expected`. */
  const offered = async (field: Locator, expected: string[]) => {
    const list = page.locator(`datalist#${await field.getAttribute('list')}`);
    await waitFor(
      async () =>
        JSON.stringify(await list.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))) ===
        JSON.stringify(expected),
      { what: `suggestions ${expected.join(', ')}` },
    );
  };

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        catalog: { command: process.execPath, args: [CATALOG_SERVER] },
        plain: { command: process.execPath, args: [CATALOG_SERVER], env: { CATALOG_NO_COMPLETIONS: '1' } },
        everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'every server connected',
      timeoutMs: 30_000,
    });
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    page.on('request', (request) => {
      const match = /\/api\/servers\/([^/]+)\/complete$/.exec(new URL(request.url()).pathname);
      if (match?.[1]) completions.push({ server: match[1], body: JSON.parse(request.postData() ?? '{}') });
    });
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    await go('#/servers/catalog');
    await resource('note://readme').waitFor();
    // Three upstreams (server-everything among them) and a browser: its own waits (30 s for
    // the servers, Playwright's 30 s for the page) need more than the default hook timeout.
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('reads a text resource: shown as text, sanitized as an agent gets it', async () => {
    await resource('note://readme').getByRole('button', { name: 'Read note://readme' }).click();
    const text = resource('note://readme').locator('pre.resource-text');
    await text.waitFor();
    expect(await text.textContent()).toBe('Read me first.\nLine two.');
    expect(pageErrors).toEqual([]);
  });

  it('reads a JSON resource: highlighted', async () => {
    await resource('data://config.json').getByRole('button', { name: 'Read data://config.json' }).click();
    const json = resource('data://config.json').locator('pre.json');
    await json.waitFor();
    expect(await json.locator('.j-key').allTextContents()).toEqual(['"name"', '"count"', '"enabled"']);
    expect(await json.locator('.j-num').allTextContents()).toEqual(['3']);
    expect(JSON.parse((await json.textContent()) ?? '')).toEqual({ name: 'demo', count: 3, enabled: true });
  });

  it('reads a PNG: its type and size, and a download of the same bytes', async () => {
    const item = resource('data://pixel.png');
    await item.getByRole('button', { name: 'Read data://pixel.png' }).click();
    await item.locator('.blob-size').waitFor();
    expect(await item.locator('.blob-size').textContent()).toBe('image/png, 69 B');
    const link = item.getByRole('link', { name: 'Download pixel.png' });
    expect(await link.getAttribute('href')).toMatch(/^blob:/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('pixel.png');
    const bytes = await readFile(await download.path());
    expect(bytes.equals(Buffer.from(CATALOG_PIXEL, 'base64'))).toBe(true);
    if (SHOTS) {
      await page.locator('section[aria-label="Resources"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'server-resources.png') });
    }
  });

  it("fills a template with the server's suggestions, then reads it", async () => {
    const form = page.getByRole('form', { name: 'Read from template note' });
    const id = form.getByLabel('id');
    await id.fill('b');
    await offered(id, ['beta']);
    await id.fill('beta');
    expect(await form.locator('.template-uri').textContent()).toBe('note://notes/beta');
    await form.getByRole('button', { name: 'Read from note' }).click();
    const text = page.locator('li[data-template="note://notes/{id}"] pre.resource-text');
    await text.waitFor();
    expect(await text.textContent()).toBe('The second note.');
    // A template the server does not know the value of: its one-line refusal, next to the form.
    await id.fill('zeta');
    await form.getByRole('button', { name: 'Read from note' }).click();
    const alert = page.locator('li[data-template="note://notes/{id}"] [role=alert]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('reading note://notes/zeta: no resource note://notes/zeta');
  });

  it('gets a prompt with its arguments: suggestions narrowed by what is filled, the messages by role', async () => {
    const card = prompt('greet');
    const name = card.getByLabel('name');
    const style = card.getByLabel('style');
    expect(await name.getAttribute('required')).not.toBeNull();
    expect(await style.getAttribute('required')).toBeNull();
    // Missing the required argument: said next to it, nothing sent.
    await card.getByRole('button', { name: 'Get greet' }).click();
    await card.locator('.field-error').waitFor();
    expect(await card.locator('.field-error').textContent()).toBe('name: required');
    await name.fill('Bob');
    await style.fill('c');
    await offered(style, ['casual', 'cheerful']);
    await name.fill('Ann');
    await style.fill('');
    await offered(style, ['formal']);
    expect(completions.at(-1)).toEqual({
      server: 'catalog',
      body: {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'style', value: '' },
        context: { arguments: { name: 'Ann' } },
      },
    });
    await style.fill('formal');
    await card.getByRole('button', { name: 'Get greet' }).click();
    const messages = card.locator('li.message');
    await messages.nth(3).waitFor();
    expect(await card.locator('.field-error').count()).toBe(0);
    expect(await messages.evaluateAll((ms) => ms.map((m) => m.getAttribute('data-role')))).toEqual([
      'user',
      'assistant',
      'user',
      'user',
    ]);
    expect(await messages.nth(0).locator('pre').textContent()).toBe('Greet Ann (formal).');
    expect(await messages.nth(1).locator('pre').textContent()).toBe('Good day, Ann!');
    expect(await messages.nth(2).locator('.blob-size').textContent()).toBe('image/png, 69 B');
    expect(await messages.nth(3).locator('code').textContent()).toBe('note://notes/alpha');
    expect(await messages.nth(3).locator('pre').textContent()).toBe('The first note.');
    expect(await card.locator('.result > p.prose').textContent()).toBe('A formal greeting');
    if (SHOTS) {
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'server-prompt.png') });
    }
  });

  it('a value the server refuses and a prompt it no longer serves: each in one line', async () => {
    const card = prompt('greet');
    await card.getByLabel('style').fill('odd');
    await card.getByRole('button', { name: 'Get greet' }).click();
    const alert = card.locator('p.error[role=alert]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('getting prompt "greet" on server "catalog" failed: unknown style "odd"');
    expect(await card.locator('li.message').count()).toBe(0);
    await prompt('retired').getByRole('button', { name: 'Get retired' }).click();
    const gone = prompt('retired').locator('[role=alert]');
    await gone.waitFor();
    expect(await gone.textContent()).toBe('getting prompt "retired": Prompt retired not found');
    expect(pageErrors).toEqual([]);
  });

  it("server-everything: its template read, its prompt's second argument suggested from the first", async () => {
    await go('#/servers/everything');
    const form = page.getByRole('form', { name: 'Read from template Dynamic Text Resource' });
    await form.getByLabel('resourceId').fill('3');
    await form.getByRole('button', { name: 'Read from Dynamic Text Resource' }).click();
    const text = page.locator('li[data-template="demo://resource/dynamic/text/{resourceId}"] pre.resource-text');
    await text.waitFor();
    expect(await text.textContent()).toMatch(/^Resource 3: This is a plaintext resource created at /);
    const card = prompt('completable-prompt');
    const department = card.getByLabel('department');
    await department.fill('E');
    await offered(department, ['Engineering']);
    await department.fill('Sales');
    await card.getByLabel('name').focus();
    await offered(card.getByLabel('name'), ['David', 'Eve', 'Frank']);
    await card.getByLabel('name').fill('Eve');
    await card.getByRole('button', { name: 'Get completable-prompt' }).click();
    await card.locator('li.message pre').waitFor();
    expect(await card.locator('li.message pre').textContent()).toBe(
      'Please promote Eve to the head of the Sales team.',
    );
  });

  it('does not scroll sideways at 390 px with contents, suggestions and messages shown', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await go('#/servers/catalog');
      for (const uri of ['note://readme', 'data://config.json', 'data://pixel.png']) {
        await resource(uri)
          .getByRole('button', { name: `Read ${uri}` })
          .click();
        await resource(uri).locator('.content-item').waitFor();
      }
      const card = prompt('greet');
      await card.getByLabel('name').fill('Ann');
      await card.getByRole('button', { name: 'Get greet' }).click();
      await card.locator('li.message').nth(3).waitFor();
      const [scroll, client] = (await page.evaluate(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      )) as [number, number];
      expect(scroll).toBeLessThanOrEqual(client);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('has no axe-core violations at WCAG 2.2 AA with contents, a template read and messages shown', async () => {
    // Still showing what the earlier tests read and got; this item's sections (the rest of the page is the accessibility test's).
    await page.locator('li[data-prompt="greet"] li.message').first().waitFor();
    await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(`axe
      .run({ include: [['.catalog']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } })
      .then((r) => r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) })))`);
    expect(violations).toEqual([]);
  });

  it('asks no suggestion of a server that does not declare completions', async () => {
    // The page's clock is driven from here, so the typing pause passes on each page without a sleep;
    // the capable server's request, sent after the other page's pause, shows that one asked nothing.
    await page.clock.install();
    const before = completions.length;
    await go('#/servers/plain');
    await page.locator('.catalog[data-completions="no"]').waitFor();
    // Another server's forms start empty: what was typed for "catalog" ("Ann") stays with it.
    expect(await prompt('greet').getByLabel('name').inputValue()).toBe('');
    const plainStyle = prompt('greet').getByLabel('style');
    await plainStyle.fill('c');
    await page.clock.runFor(1_000);
    await go('#/servers/catalog');
    await page.locator('.catalog[data-completions="yes"]').waitFor();
    const style = prompt('greet').getByLabel('style');
    await style.fill('ch');
    await page.clock.runFor(1_000);
    await offered(style, ['cheerful']);
    // (An earlier page's last suggestion may land here too: only which servers were asked counts.)
    const asked = completions.slice(before).map((c) => c.server);
    expect(asked).toContain('catalog');
    expect(asked).not.toContain('plain');
    expect(pageErrors).toEqual([]);
  });
});
