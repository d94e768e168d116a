/**
 * Bots made, changed and deleted from the web UI (issue 19, bots), in a real headless
 * Chromium against the real service with two real stdio servers: New bot creates one with
 * every field (read back from `GET /api/bots/{slug}`) and lands on its tab, the credential
 * key suggesting the keystore's names; a bad slug, a non-http base URL and a taken slug get
 * the API's one line next to their field and create nothing; an edit that empties fields
 * sends null (the API shows them cleared); the bot's servers are taken out of and put back
 * into its view (the config file follows); a config-only bot is given a profile; Delete asks
 * once more (Cancel keeps it), then the bot is gone from the API, the config file and the
 * list; the list follows bots created, changed and deleted elsewhere. With
 * `UPDATE_SCREENSHOTS=1` it writes docs/ui/bot-new.png and docs/ui/bot-edit.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../../support/fixtures.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;
const JSON_HEADERS = { 'content-type': 'application/json' };

type View = { additionalServers: string[]; removedServers: string[] };
type ApiBot = { slug: string; source: string; servers: string[]; profile: object | null; view: View | null };

describe('bots in the web UI', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const go = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  /** A request to the API, its body as JSON. */
  const send = <T = unknown>(method: string, path: string, body?: unknown) =>
    svc.api<T>(path, { method, ...(body === undefined ? {} : { headers: JSON_HEADERS, body: JSON.stringify(body) }) });
  const getBot = (slug: string) => svc.api<{ bot: ApiBot }>(`/api/bots/${slug}`);
  const slugs = async () => (await svc.api<{ bots: ApiBot[] }>('/api/bots')).body.bots.map((b) => b.slug);
  const configBots = async () =>
    (JSON.parse(await readFile(svc.configPath, 'utf8')) as { bots?: Record<string, ApiBot['view']> }).bots ?? {};
  const form = () => page.locator('form.bot-form');
  const fill = async (label: string, value: string) => form().getByLabel(label, { exact: true }).fill(value);
  const openNewBotForm = async () => {
    await go('#/bots');
    await page.getByRole('button', { name: 'New bot' }).click();
    await form().waitFor();
  };
  /** A 1280-wide picture from the top of the page to the form's end (no focus ring). */
  const shoot = async (name: string) => {
    if (!SHOTS) return;
    await page.evaluate('document.activeElement?.blur()');
    const bottom = (await page.evaluate(
      "document.querySelector('form.bot-form').getBoundingClientRect().bottom + scrollY",
    )) as number;
    await page.screenshot({
      path: join(SHOTS, name),
      fullPage: true,
      clip: { x: 0, y: 0, width: 1280, height: bottom + 16 },
    });
  };
  /** Whether the page scrolls sideways: its width past the window's. */
  const sideways = () => page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth');
  /** The API's own refusal of `body`, to compare the page's line with. */
  const refusal = async (body: unknown) =>
    (await send<{ error: { issues: { field: string; message: string }[] } }>('POST', '/api/bots', body)).body.error;

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        tiny: { command: process.execPath, args: [TINY_SERVER] },
        tiny2: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    expect((await send('PUT', '/api/credentials/openai-key', { value: 'sk-unused' })).status).toBe(204);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it("creates a bot with every field through the form and lands on its tab; the credential key suggests the keystore's names", async () => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Bots' }).click();
    await page.getByText('No bot yet').waitFor();
    await openNewBotForm();
    await fill('Slug', 'scout');
    await fill('Name', 'Scout');
    await fill('Description', 'Looks around the file system.');
    await fill('Category', 'ops');
    await fill('System prompt', 'You are terse.');
    await fill('Base URL', 'http://127.0.0.1:11434/v1');
    await fill('Model', 'llama3');
    await fill('Credential key', 'openai-key');
    await fill('Sampling budget (tokens)', '5000');
    // The suggestions are the keystore's entries, by name.
    const listId = await form().getByLabel('Credential key', { exact: true }).getAttribute('list');
    expect(
      await page.locator(`datalist#${listId} option`).evaluateAll((os) => os.map((o) => o.getAttribute('value'))),
    ).toEqual(['openai-key']);
    await shoot('bot-new.png');
    await form().getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bots / scout' }).waitFor();
    expect(await page.evaluate('location.hash')).toBe('#/bots/scout');
    await page.getByText('Answers with llama3 at http://127.0.0.1:11434/v1.').waitFor();
    expect((await getBot('scout')).body.bot.profile).toMatchObject({
      slug: 'scout',
      name: 'Scout',
      description: 'Looks around the file system.',
      category: 'ops',
      systemPrompt: 'You are terse.',
      provider: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', credentialKey: 'openai-key' },
      samplingBudgetTokens: 5000,
    });
    expect(pageErrors).toEqual([]);
  });

  it("a bad slug, then a non-http base URL: the API's one line next to the field, and nothing is created", async () => {
    await openNewBotForm();
    await fill('Slug', 'Bad Slug!');
    await fill('Name', 'Bad');
    await form().getByRole('button', { name: 'Create bot' }).click();
    const slugNote = page.locator('#bot-slug-error');
    await slugNote.waitFor();
    const slugRefusal = await refusal({ slug: 'Bad Slug!', name: 'Bad' });
    expect(slugRefusal.issues.map((i) => i.field)).toEqual(['slug']);
    expect(await slugNote.textContent()).toBe(slugRefusal.issues[0]?.message);
    expect(await form().getByLabel('Slug', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await form().getByLabel('Slug', { exact: true }).getAttribute('aria-describedby')).toBe('bot-slug-error');

    await fill('Slug', 'lookout');
    await fill('Base URL', 'ftp://127.0.0.1/models');
    await fill('Model', 'llama3');
    await form().getByRole('button', { name: 'Create bot' }).click();
    const urlNote = page.locator('#bot-baseUrl-error');
    await urlNote.waitFor();
    const urlRefusal = await refusal({
      slug: 'lookout',
      name: 'Bad',
      provider: { baseUrl: 'ftp://127.0.0.1/models', model: 'llama3' },
    });
    expect(urlRefusal.issues.map((i) => i.field)).toEqual(['provider.baseUrl']);
    expect(await urlNote.textContent()).toBe(urlRefusal.issues[0]?.message);
    // One line per refusal: the slug's note went with the slug's error.
    expect(await page.locator('#bot-slug-error').count()).toBe(0);
    expect(await page.locator('form.bot-form .error').count()).toBe(1);
    expect(await slugs()).toEqual(['scout']);
    expect((await getBot('lookout')).status).toBe(404);
    await form().getByRole('button', { name: 'Cancel' }).click();
    expect(pageErrors).toEqual([]);
  });

  it('a taken slug: the conflict is said by the slug field, and the bot that has it is unchanged', async () => {
    await openNewBotForm();
    await fill('Slug', 'scout');
    await fill('Name', 'Another scout');
    await form().getByRole('button', { name: 'Create bot' }).click();
    const note = page.locator('#bot-slug-error');
    await note.waitFor();
    expect(await note.textContent()).toBe('bot "scout" already exists; pick another slug or update that bot');
    expect((await getBot('scout')).body.bot.profile).toMatchObject({ name: 'Scout', category: 'ops' });
    expect(await slugs()).toEqual(['scout']);
    await form().getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'New bot' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('an edit sends what changed; emptied fields are cleared (null), the others kept', async () => {
    await go('#/bots/scout');
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await form().waitFor();
    // The button the form replaced had the focus: its first field has it as soon as the form
    // is there, before anything is typed (a frame later, a key meant for another field would
    // land in it).
    expect(await page.evaluate('document.activeElement.id')).toBe('bot-name');
    expect(await form().getByLabel('Model', { exact: true }).inputValue()).toBe('llama3');
    expect(await form().getByLabel('Slug', { exact: true }).count()).toBe(0);
    await fill('Name', 'Scout II');
    await fill('Category', '');
    await fill('System prompt', '');
    await fill('Sampling budget (tokens)', '');
    await shoot('bot-edit.png');
    await form().getByRole('button', { name: 'Save changes' }).click();
    await form().waitFor({ state: 'detached' });
    await page.getByText('Scout II. Answers with llama3').waitFor();
    expect((await getBot('scout')).body.bot.profile).toMatchObject({
      name: 'Scout II',
      description: 'Looks around the file system.',
      category: null,
      systemPrompt: null,
      provider: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', credentialKey: 'openai-key' },
      samplingBudgetTokens: null,
    });
    // The provider emptied: cleared as a whole. Frames held back, as on a busy machine: the
    // focus is on Name before the first key, not moved there later from under a field being
    // emptied (its Delete then took a letter off the name, and the API refused the provider).
    await page.evaluate(
      'window.heldFrames = requestAnimationFrame; requestAnimationFrame = (run) => setTimeout(run, 2000)',
    );
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await form().waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('bot-name');
    for (const label of ['Base URL', 'Model', 'Credential key']) await fill(label, '');
    await page.evaluate('requestAnimationFrame = window.heldFrames');
    await form().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Scout II. No LLM provider.').waitFor();
    expect((await getBot('scout')).body.bot.profile).toMatchObject({ name: 'Scout II', provider: null });
    expect(pageErrors).toEqual([]);
  });

  it("takes a server out of the bot's view and puts it back; the config file and the API follow", async () => {
    await go('#/bots/scout');
    const servers = page.locator('section[aria-labelledby="bot-servers-title"]');
    await servers.locator('li[data-server="tiny2"]').waitFor();
    await servers.getByRole('button', { name: 'Remove tiny2' }).click();
    await servers.locator('li[data-server="tiny2"]').waitFor({ state: 'detached' });
    expect((await getBot('scout')).body.bot.servers).toEqual(['tiny']);
    expect((await configBots()).scout).toMatchObject({ removedServers: ['tiny2'] });

    await servers.getByLabel('Add a configured server').selectOption('tiny2');
    await servers.getByRole('button', { name: 'Add to scout' }).click();
    await servers.locator('li[data-server="tiny2"]').waitFor();
    expect((await getBot('scout')).body.bot.servers).toEqual(['tiny', 'tiny2']);
    const view = (await configBots()).scout;
    expect(view?.removedServers ?? []).toEqual([]);
    expect(view?.additionalServers).toEqual(['tiny2']);
    // Every configured server is in the view: nothing left to add.
    expect(await servers.getByLabel('Add a configured server').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('keeps a server chosen to add while a removal answers late', async () => {
    // The removal's answer held in the browser: the page learns of it from its live events
    // first, the user chooses a server to add meanwhile, then the answer arrives.
    await go('#/bots/scout');
    const servers = page.locator('section[aria-labelledby="bot-servers-title"]');
    await servers.locator('li[data-server="tiny2"]').waitFor();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const path = '**/api/bots/scout/servers/tiny2';
    await page.route(path, async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await servers.getByRole('button', { name: 'Remove tiny2' }).click();
    await servers.locator('li[data-server="tiny2"]').waitFor({ state: 'detached' });
    await servers.getByLabel('Add a configured server').selectOption('tiny2');
    release();
    await waitFor(async () => (await servers.getByRole('button', { name: 'Remove tiny' }).isEnabled()) || undefined);
    await page.unroute(path);
    // The late answer did not clear the choice: adding it back is one click.
    expect(await servers.getByLabel('Add a configured server').inputValue()).toBe('tiny2');
    await servers.getByRole('button', { name: 'Add to scout' }).click();
    await servers.locator('li[data-server="tiny2"]').waitFor();
    expect((await getBot('scout')).body.bot.servers).toEqual(['tiny', 'tiny2']);
    expect(pageErrors).toEqual([]);
  });

  it('a config-only bot is offered "Give it a profile", which creates its profile under its slug', async () => {
    // A view and no profile: made with the API, then its profile deleted (the view stays).
    expect((await send('POST', '/api/bots', { slug: 'helper', name: 'Helper' })).status).toBe(201);
    expect((await send('DELETE', '/api/bots/helper/servers/tiny')).status).toBe(200);
    expect((await send('DELETE', '/api/bots/helper')).status).toBe(200);
    expect((await getBot('helper')).body.bot.source).toBe('config');
    // Left with scout's form open: helper's tab starts with its own, closed.
    await go('#/bots/scout');
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await go('#/bots/helper');
    await page.getByRole('button', { name: 'Give it a profile' }).click();
    const slug = form().getByLabel('Slug', { exact: true });
    expect(await slug.inputValue()).toBe('helper');
    expect(await slug.getAttribute('readonly')).not.toBeNull();
    expect(await page.evaluate('document.activeElement.id')).toBe('bot-name');
    await fill('Name', 'Helper again');
    await form().getByRole('button', { name: 'Give it a profile' }).click();
    await page.getByText('Helper again.').waitFor();
    const { body } = await getBot('helper');
    // Its view is the one it had: tiny still taken out of it.
    expect(body.bot).toMatchObject({
      source: 'both',
      profile: { slug: 'helper', name: 'Helper again' },
      view: { removedServers: ['tiny'] },
    });
    expect(pageErrors).toEqual([]);
  });

  it('the forms and the server list fit a 390 px window without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openNewBotForm();
      await fill('Base URL', 'https://a-rather-long-host-name.example.internal/openai/compatible/v1');
      expect(await sideways()).toBe(false);
      await form().getByRole('button', { name: 'Cancel' }).click();
      await go('#/bots/scout');
      await page.getByRole('button', { name: 'Edit profile' }).click();
      await form().waitFor();
      await page.locator('li[data-server="tiny2"]').waitFor();
      expect(await sideways()).toBe(false);
      await form().getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(pageErrors).toEqual([]);
  });

  it('delete asks once more: Cancel keeps the bot; confirmed, it is gone from the API, the config file and the list', async () => {
    await go('#/bots/scout');
    await page.getByRole('button', { name: 'Delete bot' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete bot' }).waitFor();
    expect((await getBot('scout')).status).toBe(200);
    await page.getByRole('button', { name: 'Delete bot' }).click();
    await page.getByRole('button', { name: 'Delete scout with its memories, skills, workflows and chats?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bots', exact: true }).waitFor();
    await page.locator('tr[data-bot="helper"]').waitFor();
    expect(await page.locator('tr[data-bot="scout"]').count()).toBe(0);
    expect((await getBot('scout')).status).toBe(404);
    expect(Object.keys(await configBots())).toEqual(['helper']);
    expect(pageErrors).toEqual([]);
  });

  it('the list follows bots created, changed and deleted elsewhere', async () => {
    await go('#/bots');
    await page.locator('tr[data-bot="helper"]').waitFor();
    expect((await send('POST', '/api/bots', { slug: 'echo', name: 'Echo' })).status).toBe(201);
    const row = page.locator('tr[data-bot="echo"]');
    await row.getByText('Echo', { exact: true }).waitFor();
    expect((await send('PATCH', '/api/bots/echo', { name: 'Echo two' })).status).toBe(200);
    await row.getByText('Echo two', { exact: true }).waitFor();
    expect((await send('DELETE', '/api/bots/echo')).status).toBe(200);
    await row.waitFor({ state: 'detached' });
    await waitFor(async () => !(await slugs()).includes('echo'), { what: 'echo gone from the API' });
    expect(pageErrors).toEqual([]);
  });
});
