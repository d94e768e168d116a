import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../src/bots/create-bot.js';
import { deleteBot } from '../../src/bots/delete-bot.js';
import { getBot } from '../../src/bots/get-bot.js';
import { listBots } from '../../src/bots/list-bots.js';
import { reconcileBots } from '../../src/bots/reconcile-bots.js';
import { updateBot } from '../../src/bots/update-bot.js';
import { BotExistsError, BotInputError, UnknownBotError } from '../../src/errors.js';
import { botMemoriesTable } from '../../src/storage/schema.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { DIALECTS } from '../support/test-db.js';

type Deps = Awaited<ReturnType<typeof createTestBotDeps>>;

describe.each(DIALECTS)('bot registry (%s)', (dialect) => {
  let deps: Deps;
  beforeAll(async () => {
    deps = await createTestBotDeps({ dialect });
  });
  afterAll(async () => {
    await deps.close();
  });

  it('creates a bot with the section 7 shape, reads it back and publishes the change', async () => {
    const bot = await createBot(deps, {
      slug: 'scout',
      name: 'Scout',
      description: 'Finds things',
      category: 'research',
      systemPrompt: 'You are Scout.',
      provider: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm1', credentialKey: 'openai' },
      samplingBudgetTokens: 1000,
    });
    expect(bot).toMatchObject({
      slug: 'scout',
      name: 'Scout',
      category: 'research',
      provider: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm1', credentialKey: 'openai', temperature: null },
      samplingBudgetTokens: 1000,
    });
    expect(new Date(bot.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await getBot(deps, 'scout')).toEqual(bot);
    expect(deps.changed).toContainEqual({ kind: 'created', slug: 'scout' });
  });

  it('refuses a duplicate slug and keeps the first bot', async () => {
    await createBot(deps, { slug: 'twin', name: 'First' });
    await expect(createBot(deps, { slug: 'twin', name: 'Second' })).rejects.toMatchObject({
      message: new BotExistsError('twin').message,
      code: 'conflict',
      reason: 'bot_exists',
    });
    expect((await getBot(deps, 'twin')).name).toBe('First');
  });

  it.each([
    [{ slug: 'Bad Slug', name: 'x' }, /^invalid bot: slug: bot slugs are 1 to 63 lowercase letters/],
    [{ slug: '-dash', name: 'x' }, /slug: bot slugs are/],
    [{ slug: 'a'.repeat(64), name: 'x' }, /slug: bot slugs are/],
    [
      { slug: 'ftp', name: 'x', provider: { baseUrl: 'ftp://example.test/v1', model: 'm' } },
      /^invalid bot: provider\.baseUrl: must be an http:\/\/ or https:\/\/ URL$/,
    ],
    [{ slug: 'nomodel', name: 'x', provider: { baseUrl: 'http://127.0.0.1:1/v1' } }, /provider\.model:/],
    [{ slug: 'extra', name: 'x', colour: 'red' }, /unknown field\(s\) colour/],
    [{ slug: 'budget', name: 'x', samplingBudgetTokens: -1 }, /samplingBudgetTokens:/],
    [{ slug: 'noname' }, /name:/],
  ])('refuses bad input %j with one clear line, creating nothing', async (input, message) => {
    const before = await listBots(deps);
    const error = await createBot(deps, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotInputError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
    expect(await listBots(deps)).toEqual(before);
  });

  it('names an unknown slug, and a slug outside the alphabet, on every verb', async () => {
    await expect(getBot(deps, 'ghost')).rejects.toThrow('bot "ghost" does not exist');
    await expect(updateBot(deps, 'ghost', { name: 'x' })).rejects.toBeInstanceOf(UnknownBotError);
    await expect(deleteBot(deps, 'ghost')).rejects.toBeInstanceOf(UnknownBotError);
    await expect(getBot(deps, 'NOT/ok')).rejects.toThrow(/^invalid bot slug: bot slugs are/);
  });

  it('updates fields, clears optional ones with null, and leaves the slug alone', async () => {
    await createBot(deps, {
      slug: 'editor',
      name: 'Editor',
      category: 'writing',
      provider: { baseUrl: 'https://llm.example.test/v1', model: 'a' },
    });
    const changed = await updateBot(deps, 'editor', {
      name: 'Chief Editor',
      category: null,
      provider: { baseUrl: 'http://127.0.0.1:1/v1', model: 'b', temperature: 0.2, maxTokens: 100 },
    });
    expect(changed).toMatchObject({
      slug: 'editor',
      name: 'Chief Editor',
      category: null,
      provider: { model: 'b', temperature: 0.2, maxTokens: 100, credentialKey: null },
    });
    expect((await updateBot(deps, 'editor', { provider: null })).provider).toBeNull();
    await expect(updateBot(deps, 'editor', { slug: 'renamed' })).rejects.toThrow(/unknown field\(s\) slug/);
    await expect(updateBot(deps, 'editor', { provider: { baseUrl: 'file:///etc', model: 'x' } })).rejects.toThrow(
      /provider\.baseUrl: must be an http/,
    );
    expect((await getBot(deps, 'editor')).name).toBe('Chief Editor');
  });

  it('lists by slug, filters by category and pages', async () => {
    for (const slug of ['p-c', 'p-a', 'p-b']) await createBot(deps, { slug, name: slug, category: 'paged' });
    expect((await listBots(deps, { category: 'paged' })).map((b) => b.slug)).toEqual(['p-a', 'p-b', 'p-c']);
    expect((await listBots(deps, { category: 'paged', limit: 1, offset: 1 })).map((b) => b.slug)).toEqual(['p-b']);
    await expect(listBots(deps, { limit: 0 })).rejects.toThrow(/limit:/);
  });

  it('deletes a bot with what it owns and publishes the change', async () => {
    const bot = await createBot(deps, { slug: 'gone', name: 'Gone' });
    await deps.db.insert(botMemoriesTable).values({ botId: bot.id, category: 'c', content: 'x' });
    await deleteBot(deps, 'gone');
    await expect(getBot(deps, 'gone')).rejects.toBeInstanceOf(UnknownBotError);
    expect(deps.changed.at(-1)).toEqual({ kind: 'deleted', slug: 'gone' });
    expect(await deps.db.select().from(botMemoriesTable)).toEqual([]);
  });
});

describe('reconcileBots', () => {
  const view = { additionalServers: [], removedServers: [], toolPermissions: {} };
  const bot = (slug: string) => ({
    id: slug,
    slug,
    name: slug,
    description: '',
    category: null,
    systemPrompt: null,
    provider: null,
    samplingBudgetTokens: null,
    createdAt: '',
    updatedAt: '',
  });

  it('reports bots found in one place only, never dropping them', () => {
    const listing = reconcileBots([bot('db-only'), bot('both')], { both: view, 'config-only': view });
    expect(listing.map((l) => [l.slug, l.source, l.bot !== null, l.view !== null])).toEqual([
      ['both', 'both', true, true],
      ['config-only', 'config', false, true],
      ['db-only', 'database', true, false],
    ]);
  });
});
