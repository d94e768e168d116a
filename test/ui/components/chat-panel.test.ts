/**
 * A bot's chat in the web UI, in a real headless Chromium against the real service (its
 * provider the local OpenAI-compatible fixture, its tools real stdio upstreams), as seed 003
 * asks (issue 18 item 3): each tool call a collapsible block, open while the tool runs (the
 * `gate` upstream's `fetch` runs until this test answers the URL it fetches), closed once it
 * answered, with highlighted JSON inside; a failure marked `error`; the log following the
 * answer unless the reader scrolled up; Enter sends and Shift+Enter is a new line; an
 * earlier session reopened with its tool calls and continued. And the bot tab's audit
 * gaining a row without Refresh (item 4).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_SERVER, TINY_SERVER } from '../../support/fixtures.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { type OpenAiFixture, startOpenAiFixture } from '../../support/openai-fixture.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

/** The gate's URL server: each GET waits in `held` until the test answers it. */
async function startGate() {
  const held: ServerResponse[] = [];
  const server = createServer((_req, res) => held.push(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/answer`,
    /** Answer the held request (waiting for it to arrive) with `body`. */
    async release(body: unknown, status = 200) {
      const res = await waitFor(() => held.shift(), { what: 'the gate fetched' });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the chat of a bot tab in a real browser', { timeout: 90_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let gate: Awaited<ReturnType<typeof startGate>>;
  let browser: Browser;
  let page: Page;
  let agent: Client | undefined;
  const pageErrors: string[] = [];
  // The page's CSP forbids eval, which waitForFunction's string form needs: ask from here instead.
  const until = (expression: string, what: string) => waitFor(() => page.evaluate(expression), { what });
  const log = () => page.locator('.chat-log');
  const block = (name: string) => page.locator(`details[data-tool-call="${name}"]`).last();
  const answer = (text: string) => page.locator('.chat-assistant[aria-busy="false"]').getByText(text).waitFor();
  const scroll = () =>
    page.evaluate(
      "(() => { const l = document.querySelector('.chat-log'); return { top: l.scrollTop, height: l.scrollHeight, client: l.clientHeight }; })()",
    ) as Promise<{ top: number; height: number; client: number }>;

  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    gate = await startGate();
    svc = await startTestService({
      mcpServers: {
        gate: { command: process.execPath, args: [GATE_SERVER] },
        tiny: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
    const made = await svc.send('POST', '/api/bots', {
      slug: 'scout',
      name: 'Scout',
      provider: { baseUrl: fixture.baseUrl, model: 'm' },
    });
    expect(made.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.locator('tr[data-server]').first().waitFor();
    await page.goto(`${svc.service.url}/#/bots/scout`);
    await page.getByRole('heading', { name: 'Chat' }).waitFor();
  });
  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await svc?.stop();
    await gate?.close();
    await fixture?.close();
  });

  it('Shift+Enter is a new line, Enter sends; a long answer leaves the log scrolled to its end', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n');
    fixture.reply({ text: lines });
    const box = page.getByLabel('Message', { exact: true });
    await box.click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await box.inputValue()).toBe('first line\nsecond line');
    expect(fixture.requests).toHaveLength(0);
    expect(await page.locator('.chat-user').count()).toBe(0);
    await page.keyboard.press('Enter');
    await answer('Line 60 of a long answer.');
    expect(await page.locator('.chat-user').last().textContent()).toBe('first line\nsecond line');
    expect(fixture.requests.at(-1)?.body.messages.at(-1)?.content).toBe('first line\nsecond line');
    expect(await box.inputValue()).toBe('');
    const { top, height, client } = await scroll();
    expect(height).toBeGreaterThan(client);
    expect(top + client).toBeGreaterThanOrEqual(height - 4);
  });

  it('a tool call is a block, open while it runs, closed once answered; opened, it shows highlighted JSON', async () => {
    fixture.reply(
      { toolCalls: [{ name: 'gate__fetch', arguments: { url: gate.url } }] },
      { text: 'You like tea, three times over.' },
    );
    await page.getByLabel('Message', { exact: true }).fill('What do I like?');
    await page.keyboard.press('Enter');
    const running = block('gate__fetch');
    await page.locator('details[open][data-tool-call="gate__fetch"]').waitFor();
    expect(await running.locator('summary').textContent()).toBe('gate__fetch running…');
    expect(await running.locator('.j-key').first().textContent()).toBe('"url"');
    await gate.release({ likes: ['tea'], count: 3, sure: true, why: null });
    await answer('You like tea, three times over.');
    expect(await running.evaluate((d) => d.hasAttribute('open'))).toBe(false);
    expect(await running.locator('summary').textContent()).toBe('gate__fetch answered');
    // The answer after the tool call is in view: the log followed it.
    const { top, height, client } = await scroll();
    expect(top + client).toBeGreaterThanOrEqual(height - 4);
    if (process.env.CHAT_SHOTS)
      await page.locator('.chat').screenshot({ path: `${process.env.CHAT_SHOTS}-folded.png` });

    await running.locator('summary').click();
    expect(await running.evaluate((d) => d.hasAttribute('open'))).toBe(true);
    const result = running.locator('pre.json').nth(1);
    expect(await result.locator('.j-key').allTextContents()).toEqual(['"likes"', '"count"', '"sure"', '"why"']);
    expect(await result.locator('.j-str').allTextContents()).toEqual(['"tea"']);
    expect(await result.locator('.j-num').allTextContents()).toEqual(['3']);
    expect(await result.locator('.j-lit').allTextContents()).toEqual(['true', 'null']);
    expect(await result.textContent()).toBe(
      JSON.stringify({ likes: ['tea'], count: 3, sure: true, why: null }, null, 2),
    );
    expect(await running.locator('pre.json').first().locator('.j-str').textContent()).toBe(`"${gate.url}"`);
  });

  it('a failed call is marked error (class and word); a reader who scrolled up is left where they are', async () => {
    fixture.reply({ toolCalls: [{ name: 'gate__fetch', arguments: { url: gate.url } }] }, { text: 'It failed.' });
    await page.getByLabel('Message', { exact: true }).fill('Try again');
    await page.keyboard.press('Enter');
    await page.locator('details[open][data-tool-call="gate__fetch"]').filter({ hasText: 'running…' }).waitFor();
    // The reader scrolls up while the tool runs; what comes next does not pull them down.
    await log().evaluate((l) => {
      l.scrollTop = 0;
    });
    await until("document.querySelector('.chat-log').scrollTop === 0", 'the log scrolled up');
    await gate.release({ error: 'the shelf is empty' }, 503);
    await answer('It failed.');
    const failed = page.locator('li.chat-tool.failed');
    await failed.waitFor();
    expect(await failed.locator('summary').textContent()).toBe('gate__fetch error');
    expect(await failed.locator('p.note').allTextContents()).toEqual(['arguments', 'result · error']);
    expect((await scroll()).top).toBe(0);
  });

  it('an earlier session is reopened with its tool calls and continued', async () => {
    const sessions = await svc.api<{ sessions: { sessionId: string; title: string }[] }>('/api/bots/scout/chats');
    expect(sessions.body.sessions).toHaveLength(1);
    const [session] = sessions.body.sessions;
    await page.getByRole('button', { name: 'New chat' }).click();
    expect(await page.locator('.chat-log li').count()).toBe(0);
    await page.getByText('Earlier chats (1)').click();
    await page.getByRole('button', { name: session?.title }).click();
    await answer('You like tea, three times over.');
    expect(await page.locator('.chat-user').allTextContents()).toEqual([
      'first line\nsecond line',
      'What do I like?',
      'Try again',
    ]);
    const blocks = page.locator('details[data-tool-call="gate__fetch"]');
    expect(await blocks.count()).toBe(2);
    expect(await blocks.evaluateAll((ds) => ds.map((d) => d.hasAttribute('open')))).toEqual([false, false]);
    expect(await blocks.locator('summary').allTextContents()).toEqual(['gate__fetch answered', 'gate__fetch error']);
    // Reopened at its end, as a conversation that just happened.
    const { top, height, client } = await scroll();
    expect(top + client).toBeGreaterThanOrEqual(height - 4);
    await blocks.first().locator('summary').click();
    expect(await blocks.first().locator('pre.json').nth(1).locator('.j-str').allTextContents()).toEqual(['"tea"']);
    expect(await page.getByText(`session ${session?.sessionId.slice(0, 8)}`).count()).toBe(1);

    fixture.reply({ text: 'Still tea.' });
    await page.getByLabel('Message', { exact: true }).fill('And now?');
    await page.keyboard.press('Enter');
    await answer('Still tea.');
    expect(fixture.requests.at(-1)?.body.messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['What do I like?', 'You like tea, three times over.', 'And now?']),
    );
    const after = await svc.api<{ sessions: unknown[] }>('/api/bots/scout/chats');
    expect(after.body.sessions).toHaveLength(1);
  });

  it("the bot tab's audit gains a row without Refresh when an event may have added one", async () => {
    const echoRows = () => page.locator('table.audit tbody tr').filter({ hasText: 'echo' }).count();
    expect(await echoRows()).toBe(0);
    agent = await connectHttpClient(`${svc.service.url}/mcp/bots/scout`);
    await agent.callTool({ name: 'tiny__echo', arguments: { text: 'hi' } });
    await waitFor(
      async () => (await svc.api<{ entries: unknown[] }>('/api/audit?bot=scout&tool=echo')).body.entries.length > 0,
      { what: 'the echo row in the audit' },
    );
    // Nothing polls: the row is stored, the page does not show it yet.
    expect(await echoRows()).toBe(0);
    // A state change of one of the bot's servers may add audit rows: the table reads them again.
    expect((await svc.api('/api/servers/tiny/disconnect', { method: 'POST' })).status).toBe(202);
    await waitFor(async () => (await echoRows()) === 1, { what: 'the echo row shown' });
    expect(await page.getByRole('button', { name: 'Refresh' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
