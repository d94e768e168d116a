/**
 * Issue 18 item 2 on the real service over real HTTP: bot activity (`bot_created`,
 * `bot_updated`, `bot_deleted`, `chat_message`, `workflow_started`, `workflow_finished`) on
 * `/api/events`, filtered by `?bot=` for a registry bot, and pushed to MCP sessions as
 * `notifications/message` (logger `boternity.bots`) received by the SDK's own clients: the
 * admin's `/mcp` hears every bot, a bot token and `/mcp/bots/{slug}` only their bot, a session
 * that set a level above `info` none. A 2026-07-28 client follows a bot through its activity
 * resource instead: `resources/updated` on a listen stream whose filter names
 * `boternity://bots/{slug}/activity`, then a read (ADR 023); a 2025 client may subscribe to
 * it too. Chats run against the local OpenAI-compatible fixture.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../../../src/cli/read-sse.js';
import { openKeystore } from '../../../src/storage/keystore.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { connectV2Client } from '../../support/modern-client.js';
import { type OpenAiFixture, startOpenAiFixture } from '../../support/openai-fixture.js';
import type { SseEvent } from '../../support/sse-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const ALPHA = 'boternity://bots/alpha/activity';
const BETA = 'boternity://bots/beta/activity';

/** The provider's API key, in the keystore: the log masks it once a chat read it. */
const SECRET = 'sk-push-events-secret-0123456789';

type BotData = { event: string; bot: string; [key: string]: unknown };
type Heard = { logger: string | undefined; level: string; data: BotData };

/** Collect what a 2025 SDK client is pushed under the `boternity.bots` logger. */
function listen(client: Client): Heard[] {
  const heard: Heard[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    heard.push({ logger: n.params.logger, level: n.params.level, data: n.params.data as BotData });
  });
  return heard;
}

describe('bot activity: /api/events and the MCP push', { timeout: 60_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let home: string;
  let all: Awaited<ReturnType<TestService['events']>>;
  const send = <T>(method: string, path: string, body?: unknown) =>
    svc.api<T>(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const dataOf = (e: SseEvent) => e.data as BotData;
  const on =
    (type: string, bot: string, more: (d: BotData) => boolean = () => true) =>
    (e: SseEvent) =>
      e.event === type && dataOf(e).bot === bot && more(dataOf(e));
  /** Chat once over the API and read the turn to its end. */
  const chat = async (slug: string, message: string) => {
    const response = await fetch(`${svc.service.url}/api/bots/${slug}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    const events = [];
    for await (const event of readSse(response)) events.push(event);
    return events.at(-1)?.data as { type: string; sessionId: string };
  };
  /** Wait until `heard` has a push of bot `slug` matching `more`; bot_updated pushes are made until one arrives (the client's stream opens after `connect`). */
  const primed = async (heard: Heard[], slug: string) => {
    let n = 0;
    await waitFor(
      async () => {
        n += 1;
        await send('PATCH', `/api/bots/${slug}`, { description: `primed ${n}` });
        return heard.some((h) => h.data.event === 'bot_updated' && h.data.bot === slug);
      },
      { what: `a bot_updated push of ${slug}`, intervalMs: 50 },
    );
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-push-'));
    await (await openKeystore({ home, env: process.env })).set('llm-key', SECRET);
    fixture = await startOpenAiFixture();
    svc = await startTestService(
      { mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } }, bots: { legacy: {} } },
      { home },
    );
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    all = await svc.events();
    const provider = { baseUrl: fixture.baseUrl, model: 'fixture-model', credentialKey: 'llm-key' };
    // Registry bots only (made as `bnity bot create` does): neither is in the config file.
    for (const [slug, name] of [
      ['alpha', 'Alpha'],
      ['beta', 'Beta'],
    ])
      expect((await send('POST', '/api/bots', { slug, name, provider })).status).toBe(201);
    for (const slug of ['alpha', 'beta'])
      expect(
        (
          await send('PUT', `/api/bots/${slug}/workflows/greet`, {
            steps: [{ id: 'say', tool: 'tiny__echo', arguments: { text: 'hi' } }],
          })
        ).status,
      ).toBe(201);
    expect(
      (
        await send('PUT', '/api/bots/alpha/workflows/broken', {
          steps: [
            { id: 'say', tool: 'tiny__echo', arguments: { text: 'hi' } },
            { id: 'boom', tool: 'tiny__missing', arguments: {} },
          ],
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await all?.close();
    await svc?.stop();
    await fixture?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('/api/events carries each bot event type, and ?bot= filters by a registry bot', async () => {
    expect(dataOf(await all.next(on('bot_created', 'alpha')))).toMatchObject({ server: null, name: 'Alpha' });
    const alphaOnly = await svc.events('?bot=alpha');
    try {
      expect(alphaOnly.response.status).toBe(200);
      await send('PATCH', '/api/bots/beta', { category: 'noise' });
      await send('PATCH', '/api/bots/alpha', { name: 'Alpha II', description: 'first' });
      expect(dataOf(await all.next(on('bot_updated', 'alpha')))).toMatchObject({
        name: 'Alpha II',
        fields: ['name', 'description'],
      });

      fixture.reply({ text: `The key is ${SECRET}; ${'and more '.repeat(40)}` });
      const final = await chat('alpha', 'what is\n the key?');
      expect(final.type).toBe('final');
      const user = dataOf(await all.next(on('chat_message', 'alpha', (d) => d.role === 'user')));
      expect(user).toMatchObject({ sessionId: final.sessionId, excerpt: 'what is the key?', truncated: false });
      const answer = dataOf(await all.next(on('chat_message', 'alpha', (d) => d.role === 'assistant')));
      expect(answer.sessionId).toBe(final.sessionId);
      expect(answer.excerpt).toMatch(/^The key is \[redacted\]; and more/);
      expect(answer.excerpt).not.toContain(SECRET);
      expect(String(answer.excerpt).length).toBeLessThanOrEqual(200);
      expect(answer).toMatchObject({ truncated: true, chars: SECRET.length + 13 + 9 * 40 });

      const good = await send<{ run: { status: string } }>('POST', '/api/bots/alpha/workflows/greet/run', {});
      expect(good.body.run.status).toBe('succeeded');
      expect(dataOf(await all.next(on('workflow_started', 'alpha')))).toMatchObject({ workflow: 'greet', steps: 1 });
      expect(dataOf(await all.next(on('workflow_finished', 'alpha')))).toMatchObject({
        workflow: 'greet',
        status: 'succeeded',
        failedStep: null,
        error: null,
      });
      // A run refused before it starts (no such workflow) is not announced.
      const ghost = await send<{ error: { message: string } }>('POST', '/api/bots/alpha/workflows/ghost/run', {});
      expect(ghost.status).toBe(404);
      expect(ghost.body.error.message).toBe('bot "alpha" has no workflow "ghost"');
      const bad = await send<{ run: { status: string } }>('POST', '/api/bots/alpha/workflows/broken/run', {});
      expect(bad.body.run.status).toBe('failed');
      const failed = dataOf(
        await all.next(on('workflow_finished', 'alpha', (d) => d.workflow === 'broken' && d.status === 'failed')),
      );
      expect(failed.failedStep).toBe('boom');
      expect(failed.error).toMatch(/^step "boom" \(tiny__missing\)/);
      // Each run: its start, one event per step as it ends (none for a skipped step), its end, one run id.
      const runs = all.events.filter((e) => e.event.startsWith('workflow_')).map(dataOf);
      expect(runs.map((d) => [d.workflow, d.type, d.step ?? null, d.status ?? null])).toEqual([
        ['greet', 'workflow_started', null, null],
        ['greet', 'workflow_step_finished', runs[1]?.step, 'succeeded'],
        ['greet', 'workflow_finished', null, 'succeeded'],
        ['broken', 'workflow_started', null, null],
        ['broken', 'workflow_step_finished', 'say', 'succeeded'],
        ['broken', 'workflow_step_finished', 'boom', 'failed'],
        ['broken', 'workflow_finished', null, 'failed'],
      ]);
      expect(new Set(runs.slice(0, 3).map((d) => d.runId)).size).toBe(1);
      expect(runs[5]?.error).toMatch(/^step "boom" \(tiny__missing\)/);

      await send('POST', '/api/bots', { slug: 'gamma', name: 'Gamma' });
      expect((await send('DELETE', '/api/bots/gamma')).status).toBe(200);
      expect(dataOf(await all.next(on('bot_deleted', 'gamma')))).toEqual({
        type: 'bot_deleted',
        server: null,
        bot: 'gamma',
        at: expect.any(String),
        replica: expect.any(String),
      });

      // The filtered stream: alpha's events, in order, and nothing of beta or gamma's.
      await alphaOnly.next(on('workflow_finished', 'alpha', (d) => d.workflow === 'broken'));
      const bots = new Set(alphaOnly.events.filter((e) => e.event !== 'snapshot').map((e) => dataOf(e).bot));
      expect([...bots]).toEqual(['alpha']);
      expect(alphaOnly.events.map((e) => e.event)).toEqual(
        expect.arrayContaining(['bot_updated', 'chat_message', 'workflow_started', 'workflow_finished']),
      );
    } finally {
      await alphaOnly.close();
    }
  });

  it('?bot= of a bot in neither the registry nor the config answers 404 with one line', async () => {
    const response = await svc.api('/api/events?bot=nosuch');
    expect(response).toEqual({
      status: 404,
      body: { error: { code: 'unknown_bot', message: 'bot "nosuch" does not exist' } },
    });
  });

  it('pushes a chat message and a finished workflow to an SDK client on /mcp as boternity.bots log messages', async () => {
    const admin = await connectHttpClient(`${svc.service.url}/mcp`);
    try {
      const heard = listen(admin);
      await primed(heard, 'alpha');
      fixture.reply({ text: 'Hello from alpha' });
      const result = await admin.callTool({ name: 'chat__alpha', arguments: { message: 'hello' } });
      const { sessionId } = result.structuredContent as { sessionId: string };
      await admin.callTool({ name: 'trigger_workflow', arguments: { bot: 'alpha', name: 'greet' } });
      const finished = await waitFor(() => heard.find((h) => h.data.event === 'workflow_finished'), {
        what: 'a workflow_finished push',
      });
      expect(finished).toEqual({
        logger: 'boternity.bots',
        level: 'info',
        data: {
          event: 'workflow_finished',
          bot: 'alpha',
          workflow: 'greet',
          runId: expect.any(String),
          status: 'succeeded',
          failedStep: null,
          error: null,
          durationMs: expect.any(Number),
          at: expect.any(String),
        },
      });
      const said = heard.filter((h) => h.data.event === 'chat_message').map((h) => h.data);
      expect(said).toEqual([
        expect.objectContaining({ bot: 'alpha', sessionId, role: 'user', excerpt: 'hello' }),
        expect.objectContaining({ bot: 'alpha', sessionId, role: 'assistant', excerpt: 'Hello from alpha' }),
      ]);
      expect(heard.map((h) => h.data.event)).toContain('workflow_started');
      // Each step's end is pushed too, with the run's id and no result.
      const step = heard.find((h) => h.data.event === 'workflow_step_finished');
      expect(step?.data).toEqual({
        event: 'workflow_step_finished',
        bot: 'alpha',
        workflow: 'greet',
        runId: (finished.data as unknown as { runId: string }).runId,
        step: expect.any(String),
        tool: expect.any(String),
        index: 0,
        status: 'succeeded',
        durationMs: expect.any(Number),
        error: null,
        at: expect.any(String),
      });
    } finally {
      await admin.close();
    }
  });

  it("a bot token and /mcp/bots/{slug} get only their bot's events; a session above info gets none", async () => {
    const token = await send<{ token: string }>('POST', '/api/tokens', { name: 'beta-only', bot: 'beta' });
    const own = await connectHttpClient(`${svc.service.url}/mcp`, {}, token.body.token);
    const endpoint = await connectHttpClient(`${svc.service.url}/mcp/bots/beta`);
    const quiet = await connectHttpClient(`${svc.service.url}/mcp`);
    try {
      const heard = { own: listen(own), endpoint: listen(endpoint), quiet: listen(quiet) };
      await primed(heard.own, 'beta');
      await primed(heard.endpoint, 'beta');
      await primed(heard.quiet, 'alpha');
      await quiet.setLoggingLevel('notice');
      // Alpha's run first, then beta's: each stream is in order, so beta's last event closes the window.
      await send('POST', '/api/bots/alpha/workflows/greet/run', {});
      await send('POST', '/api/bots/beta/workflows/greet/run', {});
      for (const got of [heard.own, heard.endpoint]) {
        await waitFor(() => got.some((h) => h.data.event === 'workflow_finished' && h.data.bot === 'beta'), {
          what: "beta's workflow_finished",
        });
        expect(new Set(got.map((h) => h.data.bot))).toEqual(new Set(['beta']));
        expect(got.filter((h) => h.data.event.startsWith('workflow_')).map((h) => h.data.event)).toEqual([
          'workflow_started',
          'workflow_step_finished',
          'workflow_finished',
        ]);
      }
      // Back to info: the next event comes, and no workflow event came before it at notice.
      await quiet.setLoggingLevel('info');
      await send('PATCH', '/api/bots/alpha', { category: 'after-notice' });
      await waitFor(
        () => heard.quiet.some((h) => h.data.event === 'bot_updated' && String(h.data.fields) === 'category'),
        {
          what: 'a push after info again',
        },
      );
      expect(heard.quiet.filter((h) => h.data.event.startsWith('workflow_'))).toEqual([]);
    } finally {
      await Promise.all([own.close(), endpoint.close(), quiet.close()]);
    }
  });

  it('a 2026-07-28 client follows a bot by naming its activity URI in its listen filter, and reads the event', async () => {
    const modern = await connectV2Client(`${svc.service.url}/mcp`, 'modern');
    try {
      const { resources } = await modern.listResources();
      expect(resources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ uri: ALPHA, name: 'alpha__activity', mimeType: 'application/json' }),
          expect.objectContaining({ uri: 'boternity://bots/beta/activity' }),
        ]),
      );
      expect((await modern.listResourceTemplates()).resourceTemplates).toContainEqual(
        expect.objectContaining({ uriTemplate: 'boternity://bots/{slug}/activity', mimeType: 'application/json' }),
      );
      const updated: string[] = [];
      const messages: unknown[] = [];
      let changed = 0;
      modern.setNotificationHandler('notifications/resources/updated', (n) => {
        updated.push(n.params.uri);
      });
      modern.setNotificationHandler('notifications/message', (n) => {
        messages.push(n);
      });
      modern.setNotificationHandler('notifications/resources/list_changed', () => {
        changed += 1;
      });
      const filter = { resourceSubscriptions: [ALPHA], resourcesListChanged: true };
      const listening = await modern.listen(filter);
      expect(listening.honoredFilter).toEqual(filter);
      // Beta's run first: its URI is not in the filter, so nothing of it comes before alpha's.
      await send('POST', '/api/bots/beta/workflows/greet/run', {});
      fixture.reply({ text: 'Hi, modern client' });
      const { sessionId } = await chat('alpha', 'hello from 2026');
      await waitFor(() => updated.length >= 2, { what: 'resources/updated for the user and assistant messages' });
      expect(new Set(updated)).toEqual(new Set([ALPHA]));
      const [content] = (await modern.readResource({ uri: ALPHA })).contents;
      expect(content).toMatchObject({ uri: ALPHA, mimeType: 'application/json' });
      const body = JSON.parse(String((content as { text: string }).text)) as { bot: string; events: BotData[] };
      expect(body.bot).toBe('alpha');
      expect(body.events.slice(-2)).toEqual([
        expect.objectContaining({
          event: 'chat_message',
          bot: 'alpha',
          sessionId,
          role: 'user',
          excerpt: 'hello from 2026',
        }),
        expect.objectContaining({
          event: 'chat_message',
          bot: 'alpha',
          role: 'assistant',
          excerpt: 'Hi, modern client',
        }),
      ]);
      expect(body.events.every((e) => e.bot === 'alpha' && typeof e.at === 'string')).toBe(true);
      // A workflow run: started and finished, each an update; the read ends with the run's outcome.
      const before = updated.length;
      await send('POST', '/api/bots/alpha/workflows/greet/run', {});
      await waitFor(() => updated.length >= before + 2, { what: 'resources/updated for the workflow run' });
      const after = JSON.parse(
        String(((await modern.readResource({ uri: ALPHA })).contents[0] as { text: string }).text),
      );
      expect(after.events.at(-1)).toMatchObject({ event: 'workflow_finished', workflow: 'greet', status: 'succeeded' });
      // A new bot: the listing changed (the list change the filter asked for), and still no log message.
      await send('POST', '/api/bots', { slug: 'delta', name: 'Delta' });
      await waitFor(() => changed > 0, { what: 'resources/list_changed for delta' });
      expect((await modern.listResources()).resources.map((r) => r.uri)).toContain('boternity://bots/delta/activity');
      expect(messages).toEqual([]);
      await listening.close();
    } finally {
      await modern.close();
    }
  });

  it("a bot token never hears or reads another bot's activity, in either era: one line, nothing held", async () => {
    const token = (await send<{ token: string }>('POST', '/api/tokens', { name: 'alpha-only', bot: 'alpha' })).body
      .token;
    const modern = await connectV2Client(`${svc.service.url}/mcp`, 'modern', { token });
    const legacy = await connectHttpClient(`${svc.service.url}/mcp`, {}, token);
    const endpoint = await connectV2Client(`${svc.service.url}/mcp/bots/alpha`, 'modern');
    try {
      expect((await modern.listResources()).resources.map((r) => r.uri)).toEqual([ALPHA]);
      const notAvailable = 'resource "boternity://bots/beta/activity" is not available in this view';
      await expect(modern.readResource({ uri: BETA })).rejects.toThrow(notAvailable);
      await expect(endpoint.readResource({ uri: BETA })).rejects.toThrow(notAvailable);
      await expect(legacy.readResource({ uri: BETA })).rejects.toThrow(notAvailable);
      await expect(legacy.subscribeResource({ uri: BETA })).rejects.toThrow(notAvailable);
      // A bot that does not exist is no resource either (a registry bot only).
      await expect(
        connectV2Client(`${svc.service.url}/mcp`, 'modern').then(async (admin) => {
          try {
            return await admin.readResource({ uri: 'boternity://bots/nosuch/activity' });
          } finally {
            await admin.close();
          }
        }),
      ).rejects.toThrow('resource "boternity://bots/nosuch/activity" is not available in this view');

      const updated: string[] = [];
      modern.setNotificationHandler('notifications/resources/updated', (n) => {
        updated.push(n.params.uri);
      });
      const listening = await modern.listen({ resourceSubscriptions: [BETA, ALPHA] });
      // Beta's run first, then alpha's: alpha's update closes the window in which beta's would have come.
      await send('POST', '/api/bots/beta/workflows/greet/run', {});
      await send('POST', '/api/bots/alpha/workflows/greet/run', {});
      await waitFor(() => updated.length >= 2, { what: "alpha's updates on the alpha token's stream" });
      expect(new Set(updated)).toEqual(new Set([ALPHA]));
      // What alpha's token can read is still alpha's, whole.
      const body = JSON.parse(
        String(((await modern.readResource({ uri: ALPHA })).contents[0] as { text: string }).text),
      );
      expect(body.events.at(-1)).toMatchObject({ bot: 'alpha', event: 'workflow_finished' });
      await listening.close();
    } finally {
      await Promise.all([modern.close(), legacy.close(), endpoint.close()]);
    }
  });

  it("a 2025 SDK client subscribes to a bot's activity resource and gets resources/updated until it unsubscribes", async () => {
    const client = await connectHttpClient(`${svc.service.url}/mcp`);
    try {
      const updated: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updated.push(n.params.uri);
      });
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(expect.arrayContaining([ALPHA, BETA]));
      await client.subscribeResource({ uri: ALPHA });
      await client.subscribeResource({ uri: BETA });
      // The standalone stream opens after connect: touch alpha until its first update arrives.
      let n = 0;
      await waitFor(
        async () => {
          n += 1;
          await send('PATCH', '/api/bots/alpha', { description: `watched ${n}` });
          return updated.includes(ALPHA);
        },
        { what: 'a first resources/updated for alpha', intervalMs: 50 },
      );
      await send('POST', '/api/bots/alpha/workflows/greet/run', {});
      await waitFor(() => updated.filter((u) => u === ALPHA).length >= n + 2, { what: "alpha's run as updates" });
      const body = JSON.parse(
        String(((await client.readResource({ uri: ALPHA })).contents[0] as { text: string }).text),
      );
      expect(body.events.at(-1)).toMatchObject({ event: 'workflow_finished', bot: 'alpha', status: 'succeeded' });
      expect(body.events.filter((e: BotData) => e.event === 'bot_updated').length).toBeGreaterThan(0);

      await client.unsubscribeResource({ uri: ALPHA });
      const alphaBefore = updated.filter((u) => u === ALPHA).length;
      await send('POST', '/api/bots/alpha/workflows/greet/run', {});
      await send('POST', '/api/bots/beta/workflows/greet/run', {});
      await waitFor(() => updated.filter((u) => u === BETA).length >= 2, { what: "beta's run as updates" });
      expect(updated.filter((u) => u === ALPHA).length).toBe(alphaBefore);
    } finally {
      await client.close();
    }
  });
});
