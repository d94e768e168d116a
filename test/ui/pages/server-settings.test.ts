/**
 * A server's settings edited on its page in a real headless Chromium against the real service
 * (issue 19, server settings), with a real stdio upstream (env-server.mjs, which reports its
 * environment) and a real Streamable HTTP one (tiny-http-server.mjs, which answers 401 without
 * its bearer): arguments, environment and a timeout changed, written to the file and the
 * server restarted with them; masked secrets (an env value, a bearer header) kept as they are
 * in the file when another field is saved; a bad timeout and a URL that is not http shown next
 * to their fields with the file unchanged; allowed and denied tools and the sampling mode
 * edited; tool-call timeouts and tool overrides (a tool picked from the server's list, a
 * name the API refuses shown under the table) with the env secret kept; an OAuth client set
 * on a remote server; a stdio server switched to Streamable HTTP; no sideways scroll
 * at 390 px; no axe violations in the open form. With `UPDATE_SCREENSHOTS=1` it writes docs/ui/server-settings.png.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, TINY_SERVER } from '../../support/fixtures.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTinyHttp, type TinyHttp } from '../../support/start-tiny-http.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const AXE = fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url));
const ENV_SERVER = fixtureServer('env-server.mjs');
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;
const BEARER = 'Bearer s3cret-bearer';
/** `${secret:gh}`: a keystore entry the stdio server's env reads. */
const REFERENCE = `$${'{'}secret:gh}`;

type Entry = Record<string, unknown> & { env?: Record<string, string>; headers?: Record<string, string> };

describe("a server's settings in a real browser", { timeout: 90_000 }, () => {
  let svc: TestService;
  let remote: TinyHttp;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const fileText = () => readFile(svc.configPath, 'utf8');
  const entry = async (name: string) => JSON.parse(await fileText()).mcpServers[name] as Entry;
  const connected = (name: string, notPid?: number | null) =>
    waitFor(
      async () => {
        const server = await svc.server(name);
        return server?.state === 'connected' && server.pid !== notPid ? server : null;
      },
      { what: `${name} connected`, timeoutMs: 20_000 },
    );
  const envOf = async (name: string) => {
    const answer = await svc.api<{ result: { content: { text: string }[] } }>('/api/servers/envy/tools/env/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { name } }),
    });
    return answer.body.result.content[0]?.text;
  };
  /** The server's page with its settings form open. */
  const openSettings = async (name: string) => {
    // By way of the list, so that the page is drawn afresh (a form a failed test left open is gone).
    await page.evaluate(`location.hash = '#/servers'`);
    await page.locator('table.servers').waitFor();
    await page.evaluate(`location.hash = ${JSON.stringify(`#/servers/${name}`)}`);
    await page.locator('p.summary[data-state="connected"]').waitFor();
    await page.getByRole('button', { name: 'Edit settings' }).click();
    await page.getByRole('form', { name: `Settings of ${name}` }).waitFor();
  };
  const field = (label: string) => page.getByLabel(label, { exact: true });
  const save = async () => {
    await page.getByRole('button', { name: 'Save settings' }).click();
  };
  const closeSettings = () => page.getByRole('button', { name: 'Close settings' }).click();

  beforeAll(async () => {
    remote = await startTinyHttp(undefined, { BEARER: 's3cret-bearer' });
    svc = await startTestService({
      mcpServers: {
        envy: {
          command: process.execPath,
          args: [ENV_SERVER],
          env: { API_KEY: 'real-key-123', MODE: 'slow', GH: REFERENCE },
        },
        web: { type: 'http', url: remote.url, headers: { Authorization: BEARER } },
        mover: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    // Until the keystore has it, envy's connects fail naming it; then it connects.
    const stored = await svc.api('/api/credentials/gh', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'from-keystore' }),
    });
    expect(stored.status).toBe(204);
    await connected('envy');
    await connected('web');
    await connected('mover');
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.locator('tr[data-server="web"][data-state="connected"]').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await remote?.stop();
  });

  it('edits the arguments, environment and a timeout of a stdio server: the file, GET and the restarted process have them', async () => {
    const before = await connected('envy');
    await openSettings('envy');
    // Prefilled from GET: every env value masked but a keystore reference, the rest as configured.
    expect(await field('Environment').inputValue()).toBe(`API_KEY=********\nMODE=********\nGH=${REFERENCE}`);
    expect(await field('Request timeout (ms)').inputValue()).toBe('60000');
    await field('Arguments').fill(`${ENV_SERVER}\n--verbose`);
    await field('Environment').fill(`API_KEY=********\nMODE=fast\nGH=${REFERENCE}`);
    await field('Request timeout (ms)').fill('5000');
    await save();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await entry('envy')).toEqual({
      command: process.execPath,
      args: [ENV_SERVER, '--verbose'],
      env: { API_KEY: 'real-key-123', MODE: 'fast', GH: REFERENCE },
      requestTimeoutMs: 5000,
    });
    const shown = (await svc.api<{ server: Entry }>('/api/servers/envy')).body.server;
    expect(shown).toMatchObject({ args: [ENV_SERVER, '--verbose'], requestTimeoutMs: 5000 });
    expect(shown.env).toEqual({ API_KEY: '********', MODE: '********', GH: REFERENCE });
    // Restarted with them: a new process, its environment the new one with the secret as it was.
    const after = await connected('envy', before.pid);
    expect(await envOf('MODE')).toBe('fast');
    expect(await envOf('API_KEY')).toBe('real-key-123');
    expect(await envOf('GH')).toBe('from-keystore');
    // The page shows the new settings and the server's state.
    expect(await field('Request timeout (ms)').inputValue()).toBe('5000');
    await page.locator('p.summary[data-state="connected"]', { hasText: `pid ${after.pid}` }).waitFor();
    await closeSettings();
  });

  it('keeps a masked bearer header as it is in the file when another field of a remote server is saved', async () => {
    const before = await fileText();
    const connectedBefore = (await connected('web')).connectedAt;
    await openSettings('web');
    expect(await field('Headers').inputValue()).toBe('Authorization: ********');
    expect(await field('URL').inputValue()).toBe(remote.url);
    await field('Connect timeout (ms)').fill('9000');
    await save();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await entry('web')).toEqual({
      type: 'http',
      url: remote.url,
      headers: { Authorization: BEARER },
      connectTimeoutMs: 9000,
    });
    expect(await fileText()).not.toBe(before);
    // Reconnected with the new entry; the upstream answers 401 without the bearer, so connected
    // again means the secret went through as it was.
    await waitFor(
      async () => {
        const web = await svc.server('web');
        return web?.state === 'connected' && web.connectedAt !== connectedBefore;
      },
      { what: 'web connected again', timeoutMs: 20_000 },
    );
    expect((await svc.server('web'))?.lastError).toBeNull();
    await closeSettings();
  });

  it('shows a bad timeout and a URL that is not http next to their fields, and leaves the file as it was', async () => {
    const before = await fileText();
    await openSettings('envy');
    await field('Health ping every (ms)').fill('-1');
    await save();
    const healthError = page.locator('#settings-healthIntervalMs-error');
    await healthError.waitFor();
    expect(await healthError.textContent()).toMatch(/>0|positive|too small/i);
    expect(await page.getByText('Not saved (nothing was changed): fix the fields marked.').count()).toBe(1);
    expect(await fileText()).toBe(before);
    if (SHOTS) {
      await field('Health ping every (ms)').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'server-settings.png') });
    }
    await closeSettings();

    await openSettings('web');
    await field('URL').fill('ftp://example.com/mcp');
    await save();
    const urlError = page.locator('#settings-url-error');
    await urlError.waitFor();
    expect(await urlError.textContent()).toBe('must be an http:// or https:// URL');
    expect(await fileText()).toBe(before);
    expect((await svc.server('web'))?.state).toBe('connected');
    await closeSettings();
  });

  it('edits the allowed and denied tools, offering the tools the server lists', async () => {
    const before = await connected('envy');
    await openSettings('envy');
    await page.getByRole('radio', { name: 'Only the tools ticked or named' }).check();
    await page.getByRole('group', { name: 'Allowed tools' }).getByRole('checkbox', { name: 'env' }).check();
    await field('Other denied tools').fill('write_file');
    await field("Who answers the server's sampling requests").selectOption({ label: 'Nobody (refused)' });
    await save();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await entry('envy')).toMatchObject({ allowedTools: ['env'], deniedTools: ['write_file'], sampling: 'deny' });
    expect((await svc.api<{ server: Entry }>('/api/servers/envy')).body.server).toMatchObject({
      allowedTools: ['env'],
      deniedTools: ['write_file'],
    });
    // A view change: the connection stays.
    expect((await svc.server('envy'))?.pid).toBe(before.pid);
    await page.getByRole('radio', { name: 'Every tool' }).check();
    await field('Other denied tools').fill('');
    await save();
    await waitFor(async () => (await entry('envy')).allowedTools === undefined, { what: 'the allow list removed' });
    expect((await entry('envy')).deniedTools).toBeUndefined();
    await closeSettings();
  });

  it('switches a stdio server to Streamable HTTP: the entry gets the URL and headers, loses the command, and connects over HTTP', async () => {
    await openSettings('mover');
    await field('Transport').selectOption('http');
    await field('URL').fill(remote.url);
    await field('Headers').fill(`Authorization: ${BEARER}`);
    await save();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await entry('mover')).toEqual({ type: 'http', url: remote.url, headers: { Authorization: BEARER } });
    await waitFor(
      async () => {
        const mover = await svc.server('mover');
        return mover?.state === 'connected' && mover.transport === 'http';
      },
      { what: 'mover connected over HTTP', timeoutMs: 20_000 },
    );
    await page.locator('p.summary[data-state="connected"]', { hasText: 'http' }).waitFor();
    // Prefilled afresh: the remote fields, the secret masked.
    expect(await field('Headers').inputValue()).toBe('Authorization: ********');
    await closeSettings();
  });

  it('the open form, with an error shown, has no axe violations at WCAG 2.2 AA', async () => {
    await openSettings('web');
    await field('URL').fill('ftp://example.com/mcp');
    await save();
    await page.locator('#settings-url-error').waitFor();
    await page.evaluate(await readFile(AXE, 'utf8'));
    const { violations, passes } = (await page.evaluate(
      `axe.run(document.querySelector('section.settings'), { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] })
        .then((r) => ({ passes: r.passes.length, violations: r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')) }))`,
    )) as { violations: string[]; passes: number };
    expect(violations).toEqual([]);
    // It did look: labels, contrast and the rest were checked.
    expect(passes).toBeGreaterThan(5);
    await closeSettings();
  });

  it('does not scroll sideways in a 390 px window', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSettings('envy');
    await field('Health ping every (ms)').fill('-1');
    await save();
    await page.locator('#settings-healthIntervalMs-error').waitFor();
    const [scroll, client] = (await page.evaluate(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    )) as [number, number];
    expect(scroll).toBeLessThanOrEqual(client);
    await closeSettings();
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors).toEqual([]);
  });
  it('edits the tool-call timeouts and a tool override, keeping the masked env values; a bad override name is refused under the table', async () => {
    const before = await fileText();
    await openSettings('envy');
    await field('Every tool call (ms)').fill('-5');
    await save();
    await page.locator('#settings-timeouts-callMs-error').waitFor();
    expect(await fileText()).toBe(before);
    await field('Every tool call (ms)').fill('4000');
    await field('Per tool (ms)').fill('env=9000');
    await field('Progress restarts the limit').selectOption({ label: 'No' });
    await page.getByRole('button', { name: 'Add a tool override' }).click();
    const row = page.getByRole('group', { name: 'Override 1' });
    // The server's own tools are offered for the name.
    expect(
      await page.locator('#settings-override-tools option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
    ).toContain('env');
    await row.getByLabel("Tool (the server's name)").fill('env');
    await row.getByLabel('Name agents see').fill('bad name!');
    await save();
    const error = page.locator('#settings-toolOverrides-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^env: /);
    expect(
      await page
        .getByRole('group', { name: 'Tool overrides: what agents see of a tool' })
        .getAttribute('aria-describedby'),
    ).toBe('settings-toolOverrides-error');
    expect(await fileText()).toBe(before);
    await row.getByLabel('Name agents see').fill('read_env');
    await row.getByLabel('Description').fill('Reads one variable of the environment');
    await save();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await entry('envy');
    expect(saved.timeouts).toEqual({ callMs: 4000, perTool: { env: 9000 }, resetOnProgress: false });
    expect(saved.toolOverrides).toEqual({
      env: { name: 'read_env', description: 'Reads one variable of the environment' },
    });
    expect(saved.env?.API_KEY).toBe('real-key-123');
    // Prefilled afresh from GET: the row as saved.
    expect(await page.getByRole('group', { name: 'Override 1: env' }).getByLabel('Name agents see').inputValue()).toBe(
      'read_env',
    );
    // Removed: the entry loses its overrides.
    await page.getByRole('button', { name: 'Remove override 1' }).click();
    await save();
    await waitFor(async () => (await entry('envy')).toolOverrides === undefined, { what: 'the overrides removed' });
    await closeSettings();
  });

  it("sets a remote server's OAuth client in place of its bearer header", async () => {
    await openSettings('mover');
    await field('Headers').fill('');
    await field('Client ID').fill('boternity-ui');
    await field('Client secret (keystore name)').fill('mover-client-secret');
    await field('Scopes').fill('mcp:tools  read');
    await save();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await entry('mover')).toEqual({
      type: 'http',
      url: remote.url,
      oauth: { clientId: 'boternity-ui', clientSecretKey: 'mover-client-secret', scopes: ['mcp:tools', 'read'] },
    });
    expect(await field('Scopes').inputValue()).toBe('mcp:tools read');
    expect(pageErrors).toEqual([]);
  });
});
