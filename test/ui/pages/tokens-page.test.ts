/**
 * The connection snippets of the Tokens page (issue 19, tokens), in a real headless Chromium
 * against the real service: a token made for a bot shows, with its secret, a snippet per
 * client naming that bot's endpoint (`/mcp/bots/{slug}`) and carrying the token; the curl
 * snippet, run as a user would paste it (real curl, real HTTP), gets a 200 `initialize`
 * answer from the service, and the Claude Desktop one, launched as Claude Desktop launches
 * it (its command, args and env; `bnity` being bin/bnity.js), bridges an MCP client to the
 * bot's endpoint with that token; hiding the token hides the snippet with it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BNITY } from '../../support/serve-process.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { useTempDirs } from '../../support/temp-dir.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';

const run = promisify(execFile);

describe('connection snippets on the Tokens page', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const tempDir = useTempDirs();
  /** The Claude Desktop entry the page showed, for the second test. */
  let desktop: { command: string; args: string[]; env: Record<string, string> } | undefined;

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {} });
    const made = await fetch(`${svc.service.url}/api/bots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        slug: 'scout',
        name: 'Scout',
        provider: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
      }),
    });
    expect(made.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it("a bot token: each client's snippet names /mcp/bots/scout and the token; the curl one answers initialize with 200", async () => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tokens' }).click();
    await page.locator('#token-bot option[value="scout"]').waitFor({ state: 'attached' });
    await page.getByLabel('Name', { exact: true }).fill('scout-agent');
    await page.getByLabel('Bot', { exact: true }).selectOption('scout');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.locator('#new-token').textContent())?.trim() ?? '';
    expect(token).toMatch(/^bnt_[\w-]{32}$/);
    const endpoint = `${svc.service.url}/mcp/bots/scout`;
    const snippet = page.locator('#connect-snippet');

    // Claude Code first, then each of the others as the select picks it.
    expect(await snippet.textContent()).toBe(
      `claude mcp add --transport http boternity-scout ${endpoint} --header "Authorization: Bearer ${token}"\n`,
    );
    const client = page.getByLabel('Connect with');
    await client.selectOption('claude-desktop');
    await page.locator('#connect-snippet[data-client="claude-desktop"]').waitFor();
    desktop = JSON.parse((await snippet.textContent()) ?? '').mcpServers['boternity-scout'];
    expect(desktop).toEqual({
      command: 'bnity',
      args: ['mcp', 'serve', '--stdio', '--bot', 'scout'],
      env: { BOTERNITY_URL: svc.service.url, BOTERNITY_ADMIN_TOKEN: token },
    });
    for (const [name, root] of [
      ['cursor', 'mcpServers'],
      ['vscode', 'servers'],
    ] as const) {
      await client.selectOption(name);
      await page.locator(`#connect-snippet[data-client="${name}"]`).waitFor();
      const entry = JSON.parse((await snippet.textContent()) ?? '')[root]['boternity-scout'];
      expect(entry.url).toBe(endpoint);
      expect(entry.headers).toEqual({ Authorization: `Bearer ${token}` });
    }

    await client.selectOption('curl');
    await page.locator('#connect-snippet[data-client="curl"]').waitFor();
    const curl = (await snippet.textContent()) ?? '';
    expect(curl).toContain(endpoint);
    expect(curl).toContain(token);
    // Pasted into a shell as it is, with the status code printed after the answer.
    const { stdout } = await run('sh', ['-c', `${curl.trimEnd()} -w '\\n%{http_code}'`]);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('200');
    const body = lines.slice(0, -1).join('\n');
    // The answer is JSON or one SSE event carrying it.
    const json = body.trimStart().startsWith('{') ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? '');
    const answer = JSON.parse(json);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } });
    expect(answer.result.serverInfo.name).toBeTruthy();

    // Copy puts the snippet on the clipboard, or selects it for Ctrl+C where that is refused.
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByText(/^(Copied|Selected: press Ctrl\+C)$/).waitFor();

    await page.getByRole('button', { name: 'Done, hide it' }).click();
    await page.locator('tr[data-token="scout-agent"]').waitFor();
    expect(await snippet.count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect(pageErrors).toEqual([]);
  });

  it("the Claude Desktop snippet, launched as the client would, serves the bot's view with the bot token", async () => {
    if (!desktop) throw new Error('the first test did not read the Claude Desktop snippet');
    expect(desktop.command).toBe('bnity');
    const home = await tempDir();
    // Only PATH from this process: no BOTERNITY_* of the test run, and a HOME of its own.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BNITY, ...desktop.args],
      env: { PATH: process.env.PATH ?? '', HOME: home, ...desktop.env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => {
      stderr += d;
    });
    const client = new Client({ name: 'claude-desktop-stand-in', version: '1' });
    await client.connect(transport);
    expect(Array.isArray((await client.listTools()).tools)).toBe(true);
    expect(stderr).toContain(`bnity: serving ${svc.service.url}/mcp/bots/scout on stdio`);
    await client.close();
  });
});

describe('revoking on the Tokens page', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {} });
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('says a revoke that failed over the table, not in the New token form', async () => {
    const made = await svc.send<{ id: string }>('POST', '/api/tokens', { name: 'gone-elsewhere' });
    expect(made.status).toBe(201);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tokens' }).click();
    const row = page.locator('tr[data-token="gone-elsewhere"]');
    await row.waitFor();
    // Revoked behind the page's back: its Revoke now meets a 404.
    expect((await svc.send('DELETE', `/api/tokens/${made.body.id}`, undefined)).status).toBe(204);
    await row.getByRole('button', { name: 'Revoke gone-elsewhere' }).click();
    await page.getByRole('button', { name: 'Revoke gone-elsewhere?' }).click();
    const alert = page.locator('form[aria-labelledby="new-token-title"] ~ [role="alert"]').first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`Could not revoke: no live token with id "${made.body.id}"`);
    expect(await page.locator('form[aria-labelledby="new-token-title"] [role="alert"]').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
