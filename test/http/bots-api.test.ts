/**
 * `/api/bots` on the real service (SPEC A1, B1–B4, section 7): CRUD across both places a
 * bot lives, the view edits written to the config file, memories, skills, workflows, chat as
 * server-sent events against the local OpenAI-compatible fixture, history, sampling usage,
 * and every bad input answered with one line naming the field, nothing changed.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../../src/cli/read-sse.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { openSse } from '../support/sse-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type ErrorBody = { error: { code: string; message: string; issues?: { field: string; message: string }[] } };
type Detail = {
  slug: string;
  source: string;
  profile: { name: string; provider: unknown } | null;
  view: { additionalServers: string[]; removedServers: string[]; toolPermissions: Record<string, unknown> } | null;
  servers: string[];
  warning: string | null;
};

const tiny = { command: process.execPath, args: [TINY_SERVER] };

describe('/api/bots', { timeout: 60_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  const send = <T>(method: string, path: string, body?: unknown) =>
    svc.api<T>(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    svc = await startTestService({
      mcpServers: { tiny, extra: { ...tiny, enabled: false } },
      bots: { legacy: { additionalServers: ['extra'] } },
    });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
  });
  afterAll(async () => {
    await svc?.stop();
    await fixture?.close();
  });

  it('creates, lists (both places joined, one-place bots reported), reads, changes and deletes a bot', async () => {
    const made = await send<{ bot: Detail }>('POST', '/api/bots', {
      slug: 'scout',
      name: 'Scout',
      provider: { baseUrl: fixture.baseUrl, model: 'fixture-model' },
    });
    expect(made.status).toBe(201);
    expect(made.body.bot).toMatchObject({ slug: 'scout', source: 'database', view: null, servers: ['tiny'] });
    expect(made.body.bot.warning).toMatch(/no view in the config file: it sees the default servers/);

    const listed = await send<{ bots: Detail[] }>('GET', '/api/bots');
    expect(listed.body.bots.map((b) => [b.slug, b.source])).toEqual([
      ['legacy', 'config'],
      ['scout', 'database'],
    ]);
    expect(listed.body.bots[0]?.warning).toMatch(/not in the registry/);
    expect((await send<{ bots: Detail[] }>('GET', '/api/bots?limit=1&offset=1')).body.bots.map((b) => b.slug)).toEqual([
      'scout',
    ]);

    const changed = await send<{ bot: Detail }>('PATCH', '/api/bots/scout', { name: 'Scout II', category: 'ops' });
    expect(changed.body.bot.profile?.name).toBe('Scout II');
    expect((await send<{ bots: Detail[] }>('GET', '/api/bots?category=ops')).body.bots.map((b) => b.slug)).toEqual([
      'scout',
    ]);
    expect((await send<{ bot: Detail }>('GET', '/api/bots/legacy')).body.bot).toMatchObject({
      source: 'config',
      profile: null,
      servers: ['tiny', 'extra'],
    });

    await send('POST', '/api/bots', { slug: 'brief', name: 'Brief' });
    const gone = await send<{ removed: string; profile: boolean; view: boolean }>('DELETE', '/api/bots/brief');
    expect(gone.body).toEqual({ removed: 'brief', profile: true, view: false });
    expect((await send<ErrorBody>('GET', '/api/bots/brief')).status).toBe(404);
  });

  it('refuses bad input with one line naming the field, and changes nothing', async () => {
    const before = (await send<{ bots: Detail[] }>('GET', '/api/bots')).body.bots;
    const cases: [string, string, unknown, number, RegExp][] = [
      ['GET', '/api/bots/ghost', undefined, 404, /^bot "ghost" does not exist$/],
      [
        'POST',
        '/api/bots',
        { slug: 'Bad Slug!', name: 'x' },
        400,
        /^invalid request body: slug: bot slugs are 1 to 63/,
      ],
      [
        'POST',
        '/api/bots',
        { slug: 'ftp', name: 'x', provider: { baseUrl: 'ftp://host/v1', model: 'm' } },
        400,
        /provider\.baseUrl: must be an http:\/\/ or https:\/\/ URL/,
      ],
      ['POST', '/api/bots', { slug: 'scout', name: 'again' }, 409, /bot "scout" already exists/],
      ['POST', '/api/bots', { slug: 'x', name: 'x', owner: 'me' }, 400, /owner: unknown field/],
      ['GET', '/api/bots/BAD!', undefined, 400, /bot slug/],
      ['PUT', '/api/bots/ghost/workflows/w', { steps: [{ id: 'a', tool: 'tiny__echo' }] }, 404, /bot "ghost"/],
      ['PUT', '/api/bots/scout/overrides', { additionalServers: ['nowhere'] }, 400, /"nowhere" is not configured/],
      ['POST', '/api/bots/scout/servers/nowhere', undefined, 400, /"nowhere" is not configured/],
      ['PUT', '/api/bots/ghost/overrides', {}, 404, /bot "ghost" does not exist/],
      ['DELETE', '/api/bots/ghost', undefined, 404, /bot "ghost" does not exist/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const answer = await send<ErrorBody>(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.body.error.message, `${method} ${path}`).toMatch(message);
      expect(answer.body.error.message).not.toContain('\n');
    }
    expect((await send<{ bots: Detail[] }>('GET', '/api/bots')).body.bots).toEqual(before);
  });

  it("edits the bot's view in the config file and applies it at once, telling /api/events (bot_updated)", async () => {
    const events = await openSse(`${svc.service.url}/api/events?bot=scout`, { authorization: `Bearer ${TEST_TOKEN}` });
    await events.next((e) => e.event === 'snapshot');
    const added = await send<{ bot: Detail }>('POST', '/api/bots/scout/servers/extra');
    expect(added.status).toBe(200);
    const updated = await events.next((e) => e.event === 'bot_updated');
    expect(updated.data).toMatchObject({ type: 'bot_updated', bot: 'scout', name: 'Scout II', fields: ['view'] });
    await events.close();
    expect(added.body.bot).toMatchObject({ source: 'both', servers: ['tiny', 'extra'], warning: null });
    const denied = await send<{ bot: Detail }>('PATCH', '/api/bots/scout/permissions/tiny', { deny: ['echo'] });
    expect(denied.body.bot.view?.toolPermissions).toEqual({ tiny: { denied: ['echo'] } });
    const allowed = await send<{ bot: Detail }>('PATCH', '/api/bots/scout/permissions/tiny', { allow: ['echo'] });
    expect(allowed.body.bot.view?.toolPermissions).toEqual({ tiny: { allowed: ['echo'] } });
    const removed = await send<{ bot: Detail }>('DELETE', '/api/bots/scout/servers/tiny');
    expect(removed.body.bot.view).toMatchObject({ additionalServers: ['extra'], removedServers: ['tiny'] });
    expect(removed.body.bot.servers).toEqual(['extra']);
    const file = JSON.parse(await readFile(svc.configPath, 'utf8'));
    expect(file.bots.scout).toEqual({
      additionalServers: ['extra'],
      removedServers: ['tiny'],
      toolPermissions: { tiny: { allowed: ['echo'] } },
    });
    const replaced = await send<{ bot: Detail }>('PUT', '/api/bots/scout/overrides', {});
    expect(replaced.body.bot.view).toEqual({ additionalServers: [], removedServers: [], toolPermissions: {} });
    expect(replaced.body.bot.servers).toEqual(['tiny']);
  });

  it('keeps memories, skills (rendered) and workflows (checked, run through the gateway)', async () => {
    const memory = await send<{ memory: { id: string } }>('POST', '/api/bots/scout/memories', {
      content: 'likes tea',
      category: 'taste',
    });
    expect(memory.status).toBe(201);
    await send('POST', '/api/bots/scout/memories', { content: 'works nights' });
    const taste = await send<{ memories: { content: string }[] }>('GET', '/api/bots/scout/memories?category=taste');
    expect(taste.body.memories.map((m) => m.content)).toEqual(['likes tea']);
    expect((await send('DELETE', `/api/bots/scout/memories/${memory.body.memory.id}`)).status).toBe(200);
    expect((await send<{ memories: unknown[] }>('GET', '/api/bots/scout/memories')).body.memories).toHaveLength(1);

    const skill = { template: 'Say {{word}} twice', arguments: [{ name: 'word', required: true }] };
    expect((await send('PUT', '/api/bots/scout/skills/twice', skill)).status).toBe(201);
    expect((await send('PUT', '/api/bots/scout/skills/twice', skill)).status).toBe(200);
    const text = await send<{ text: string }>('POST', '/api/bots/scout/skills/twice/render', {
      arguments: { word: 'hi' },
    });
    expect(text.body).toEqual({ text: 'Say hi twice' });
    const undeclared = await send<ErrorBody>('PUT', '/api/bots/scout/skills/bad', { template: '{{nope}}' });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error.message).toMatch(/template: \{\{nope\}\} does not name a declared argument/);

    const flow = {
      steps: [
        { id: 'first', tool: 'tiny__echo', arguments: { text: '{{input.word}}' } },
        { id: 'second', tool: 'tiny__echo', arguments: { text: 'got {{steps.first.text}}' } },
      ],
    };
    expect((await send('PUT', '/api/bots/scout/workflows/relay', flow)).status).toBe(201);
    const run = await send<{ run: { status: string; output: { content: { text: string }[] } } }>(
      'POST',
      '/api/bots/scout/workflows/relay/run',
      { input: { word: 'tea' } },
    );
    expect(run.body.run.status).toBe('succeeded');
    expect(run.body.run.output.content[0]?.text).toBe('got tea');
    const missing = await send<ErrorBody>('PUT', '/api/bots/scout/workflows/ghostly', {
      steps: [{ id: 'a', tool: 'tiny__echo', arguments: { text: '{{steps.ghost.text}}' } }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/refers to step "ghost", which does not exist/);
    expect((await send<{ workflows: unknown[] }>('GET', '/api/bots/scout/workflows')).body.workflows).toHaveLength(1);
  });

  it('chats as server-sent events, keeps the history, refuses a message over the limit', async () => {
    fixture.reply({ text: 'Hello there', usage: { prompt_tokens: 10, completion_tokens: 2 } });
    const response = await fetch(`${svc.service.url}/api/bots/scout/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = [];
    for await (const event of readSse(response)) events.push(event);
    const final = events.at(-1)?.data as { type: string; sessionId: string; usage: { totalTokens: number } };
    expect(events.map((e) => e.event)).toEqual(['text', 'text', 'final']);
    expect(final).toMatchObject({ type: 'final', text: 'Hello there', usage: { totalTokens: 12 } });

    const chats = await send<{ sessions: { sessionId: string }[] }>('GET', '/api/bots/scout/chats');
    expect(chats.body.sessions.map((s) => s.sessionId)).toEqual([final.sessionId]);
    const history = await send<{ chat: { messages: { role: string; content: string }[] } }>(
      'GET',
      `/api/bots/scout/chats/${final.sessionId}`,
    );
    expect(history.body.chat.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there'],
    ]);
    const huge = await send<ErrorBody>('POST', '/api/bots/scout/chat', { message: 'x'.repeat(40_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toBe('message is 40000 characters, over the limit of 32000; send a shorter one');
    expect((await send<ErrorBody>('POST', '/api/bots/ghost/chat', { message: 'hi' })).status).toBe(404);
  });

  it('reads and resets sampling usage', async () => {
    const usage = await send<{ usedTokens: number; budgetTokens: number | null }>('GET', '/api/bots/scout/sampling');
    expect(usage.body).toEqual({ usedTokens: 0, budgetTokens: null });
    expect((await send('POST', '/api/bots/scout/sampling/reset')).status).toBe(200);
  });
});
