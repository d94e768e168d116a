/**
 * A server's page in a real headless Chromium against the real service, for what it does
 * with the server's state: **Connect now** while it waits on its backoff (a retry at once);
 * its sampling spend against its budget, and **Reset spend**; a catalog marked stale with its
 * forms off while the server is not connected, and an error reading it shown over the last
 * list read; and the test form's raw JSON mode (the default for a schema fields cannot draw;
 * JSON checked before sending; a required string sent as "" on purpose). No axe violations.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WCAG_22_AA } from '../../support/axe-run.js';
import { fixtureServer, GATEWAY_SERVER } from '../../support/fixtures.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const ARGS_SERVER = fixtureServer('args-server.mjs');
const AXE = fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url));
const RUG_SERVER = fixtureServer('rug-pull-server.mjs');

describe("a server's page and the server's state, in a real browser", { timeout: 120_000 }, () => {
  let svc: TestService;
  let client: Client;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const status = async (name: string) => (await svc.server(name)) as unknown as Record<string, unknown> | undefined;
  const open = async (name: string, state: string) => {
    await page.evaluate(`location.hash = '#/servers'`);
    await page.locator('table.servers').waitFor();
    await page.evaluate(`location.hash = ${JSON.stringify(`#/servers/${name}`)}`);
    await page.locator(`p.summary[data-state="${state}"]`).waitFor();
  };
  const card = (tool: string) => page.locator(`div.tool-row[data-tool="${tool}"]`);
  const openForm = async (tool: string) => {
    const opener = card(tool).locator('button.disclose');
    if ((await opener.getAttribute('aria-expanded')) === 'false') await opener.click();
    await card(tool).getByText(`Try ${tool}`, { exact: true }).click();
    return page.getByRole('form', { name: `Run ${tool}` });
  };

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        // Exits at once; its next retry is five minutes away.
        flaky: {
          command: process.execPath,
          args: ['-e', 'process.exit(3)'],
          backoff: { baseMs: 300_000, capMs: 300_000, jitter: 0 },
        },
        sampler: { command: process.execPath, args: [GATEWAY_SERVER], samplingBudgetTokens: 1000 },
        args: { command: process.execPath, args: [ARGS_SERVER] },
        rug: { command: process.execPath, args: [RUG_SERVER] },
      },
    });
    await waitFor(
      async () => {
        const all = await svc.servers();
        return (
          all.find((s) => s.name === 'flaky')?.state === 'reconnecting' &&
          all.filter((s) => s.state === 'connected').length === 3
        );
      },
      { what: 'flaky reconnecting, the others connected', timeoutMs: 30_000 },
    );
    client = await connectHttpClient(`${svc.service.url}/mcp`, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'ok' },
    }));
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    await page.locator('table.servers').waitFor();
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await svc?.stop();
  });

  it('Connect now retries a reconnecting server at once, not at the end of its backoff', async () => {
    const before = (await status('flaky'))?.attempt as number;
    await open('flaky', 'reconnecting');
    await page.getByRole('button', { name: 'Connect flaky now' }).click();
    // The retry ran (and failed again, as this command always does): a later attempt, long before five minutes.
    await waitFor(async () => ((await status('flaky'))?.attempt as number) > before, { what: 'another attempt' });
    await page.locator('p.summary[data-state="reconnecting"]', { hasText: `attempt ${before + 1}` }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Could not' }).count()).toBe(0);
  });

  it('shows the sampling spend against the budget, and Reset spend (asked twice) sets it to 0', async () => {
    await client.callTool({ name: 'sampler__ask', arguments: { prompt: 'hi' } });
    const used = (await status('sampler'))?.samplingUsedTokens as number;
    expect(used).toBeGreaterThan(0);
    await open('sampler', 'connected');
    const spend = page.locator('section.sampling');
    await spend.getByText(`${used} of 1,000 tokens (${Math.round(used / 10)}%)`).waitFor();
    await spend.getByRole('button', { name: 'Reset spend' }).click();
    await spend.getByRole('button', { name: 'Reset the sampling spend of sampler to 0?' }).click();
    await spend.getByText('0 of 1,000 tokens (0%)').waitFor();
    await spend.getByRole('status').filter({ hasText: 'Spend reset to 0.' }).waitFor();
    expect((await status('sampler'))?.samplingUsedTokens).toBe(0);
  });

  it('opens a tool whose schema fields cannot draw in raw JSON, checks the JSON, and sends it', async () => {
    await open('args', 'connected');
    for (const tool of ['anything', 'combo']) {
      const form = await openForm(tool);
      const raw = form.getByLabel('Arguments (JSON)');
      expect(await raw.inputValue()).toBe('{}');
      await raw.fill('{"a": 1,');
      await form.getByRole('button', { name: `Run ${tool}` }).click();
      const error = form.locator('.field-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^not JSON: /);
      expect(await raw.getAttribute('aria-describedby')).toContain((await error.getAttribute('id')) as string);
      expect(await raw.inputValue()).toBe('{"a": 1,');
      await raw.fill('[1]');
      await form.getByRole('button', { name: `Run ${tool}` }).click();
      await form.getByText('the arguments must be a JSON object ({…}), not an array').waitFor();
      await raw.fill('{"a": "x", "deep": {"n": [1, 2]}}');
      await form.getByRole('button', { name: `Run ${tool}` }).click();
      await form.getByText('args: {"a":"x","deep":{"n":[1,2]}}').waitFor();
    }
  });

  it('sends a required string as "" only when asked for, from the JSON mode, keeping what was typed', async () => {
    const form = await openForm('say');
    await form.getByRole('button', { name: 'Run say' }).click();
    await form.getByText('required (to send an empty string, use Edit as JSON)').waitFor();
    await form.getByRole('button', { name: 'Edit as JSON (say)' }).click();
    const raw = form.getByLabel('Arguments (JSON)');
    expect(JSON.parse(await raw.inputValue())).toEqual({ text: '' });
    await form.getByRole('button', { name: 'Run say' }).click();
    await form.getByText('args: {"text":""}').waitFor();
    // Back to the fields with what the JSON says; a key no field has keeps it JSON.
    await raw.fill('{"text": "hello"}');
    await form.getByRole('button', { name: 'Edit as fields (say)' }).click();
    expect(await form.getByLabel('text', { exact: true }).inputValue()).toBe('hello');
    await form.getByRole('button', { name: 'Edit as JSON (say)' }).click();
    await raw.fill('{"text": "hello", "extra": 1}');
    await form.getByRole('button', { name: 'Edit as fields (say)' }).click();
    await form.getByText('Not switched: kept as JSON: "extra" has no field in the form').waitFor();
    expect(await raw.inputValue()).toBe('{"text": "hello", "extra": 1}');
  });

  it('marks the catalog stale and turns Run off while the server is not connected, and says a failed read', async () => {
    const form = page.getByRole('form', { name: 'Run say' });
    expect(await form.getByRole('button', { name: 'Run say' }).isEnabled()).toBe(true);
    expect((await svc.api('/api/servers/args/disconnect', { method: 'POST' })).status).toBe(202);
    await page.locator('p.summary[data-state="disabled"]').waitFor();
    await page.locator('p.stale').getByText('Stale: args is not connected (disabled)', { exact: false }).waitFor();
    expect(await form.getByRole('button', { name: 'Run say' }).isDisabled()).toBe(true);
    expect(await form.getByText('args is disabled: connect it to run these.').count()).toBe(1);
    // A rug-pull elsewhere makes the page read the catalog again: that read fails, and says so over the old list.
    expect((await svc.send('POST', '/api/servers/rug/tools/mutate/call', { arguments: {} })).status).toBe(200);
    await page.getByRole('alert').filter({ hasText: 'Could not read what args offers now' }).waitFor();
    expect(await card('say').count()).toBe(1);
    // The page's CSP refuses an injected script tag: axe is evaluated instead, as server-settings.test.ts does.
    await page.evaluate(await readFile(AXE, 'utf8'));
    const violations = await page.evaluate(
      `axe.run(document, { runOnly: ${JSON.stringify(WCAG_22_AA)} }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
    );
    expect(violations).toEqual([]);
    // Connected again: live, Run on.
    expect((await svc.api('/api/servers/args/connect', { method: 'POST' })).status).toBe(202);
    await page.locator('p.summary[data-state="connected"]').waitFor();
    await waitFor(async () => (await page.locator('p.stale').count()) === 0, { what: 'the stale mark gone' });
    // The failed read's alert goes once the catalog is read again on connect (its own request, after the state).
    await waitFor(
      async () =>
        (await page.getByRole('alert').filter({ hasText: 'Could not read what args offers now' }).count()) === 0,
      { what: "the failed read's alert gone" },
    );
    if ((await page.getByRole('form', { name: 'Run say' }).count()) === 0) await openForm('say');
    expect(await page.getByRole('button', { name: 'Run say' }).isEnabled()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
