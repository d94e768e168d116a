/**
 * Memories, skills and workflows on a bot's tab (issue 19, content), in a real headless
 * Chromium against the real service, the bot's view holding the gate server (a real stdio
 * upstream whose `fetch` tool is held on a test HTTP server until the test answers). A
 * memory added, changed and deleted (the API shows each); a skill with arguments saved and
 * its preview rendered by the API; a template naming an undeclared argument gets the API's
 * error under the template and saves nothing; a workflow made in the form, a bad reference's
 * error under the right step, the JSON mode round-tripping; a run whose first step shows
 * succeeded (from its event) while the second is still held, then the output; a failed step
 * shown; each deleted after its confirmation. With `UPDATE_SCREENSHOTS=1` it writes
 * docs/ui/bot-skill.png and docs/ui/bot-workflow-run.png.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_SERVER } from '../../support/fixtures.js';
import { startHeldHttp } from '../../support/held-http.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/ui/', import.meta.url)) : null;

type Memory = { id: string; category: string; content: string };

describe("a bot's memories, skills and workflows in the web UI", { timeout: 120_000 }, () => {
  let svc: TestService;
  let held: Awaited<ReturnType<typeof startHeldHttp>>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const get = async <T>(path: string) => (await svc.api<T>(`/api/bots/scout${path}`)).body;

  beforeAll(async () => {
    held = await startHeldHttp();
    svc = await startTestService({ mcpServers: { gate: { command: process.execPath, args: [GATE_SERVER] } } });
    await waitFor(async () => (await svc.server('gate'))?.state === 'connected', { what: 'gate connected' });
    const made = await svc.send('POST', '/api/bots', { slug: 'scout', name: 'Scout', description: 'Finds things' });
    expect(made.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    // Each wait well inside the hook's 30 s, so a hang names its step (the hook once timed out
    // in a whole-suite run, and passed alone).
    await page.getByRole('navigation', { name: 'Pages' }).waitFor({ timeout: 10_000 });
    await page.goto(`${svc.service.url}/#/bots/scout`);
    await page
      .getByRole('heading', { name: 'Memories (0)' })
      .waitFor({ timeout: 10_000 })
      .catch(async (error: Error) => {
        const shown = ((await page.locator('body').textContent()) ?? '').slice(0, 400);
        throw new Error(`the bot page shows no "Memories (0)" heading: ${shown}`, { cause: error });
      });
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await held?.close();
  });

  it('adds, changes and deletes a memory; the API shows each', async () => {
    const section = page.locator('section[aria-labelledby="bot-memories-title"]');
    await section.getByText('Add a memory').click();
    await section.getByLabel('Content').fill('likes tea');
    await section.getByLabel('Category').fill('taste');
    await section.getByRole('button', { name: 'Add memory' }).click();
    await page.getByRole('heading', { name: 'Memories (1)' }).waitFor();
    const [memory] = (await get<{ memories: Memory[] }>('/memories')).memories;
    expect(memory).toMatchObject({ content: 'likes tea', category: 'taste' });
    const row = section.locator(`li[data-memory="${memory?.id}"]`);
    await row.getByRole('button', { name: 'Edit memory' }).click();
    await row.getByLabel('Content').fill('');
    await row.getByRole('button', { name: 'Save memory' }).click();
    const error = row.locator(`#memory-${memory?.id}-content-error`);
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^String must contain at least 1 character|too small|at least 1/i);
    expect((await get<{ memories: Memory[] }>('/memories')).memories[0]?.content).toBe('likes tea');
    await row.getByLabel('Content').fill('likes green tea');
    await row.getByRole('button', { name: 'Save memory' }).click();
    await row.getByText('likes green tea').waitFor();
    expect((await get<{ memories: Memory[] }>('/memories')).memories).toEqual([
      expect.objectContaining({ id: memory?.id, content: 'likes green tea', category: 'taste' }),
    ]);
    await row.getByRole('button', { name: 'Delete memory' }).click();
    await row.getByRole('button', { name: 'Delete this memory?' }).click();
    await page.getByRole('heading', { name: 'Memories (0)' }).waitFor();
    expect((await get<{ memories: Memory[] }>('/memories')).memories).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("saves a skill with arguments and renders its preview; an undeclared argument is the API's error under the template, nothing saved", async () => {
    const section = page.locator('section[aria-labelledby="bot-skills-title"]');
    await section.getByRole('button', { name: 'New skill' }).click();
    const form = section.getByRole('form', { name: 'New skill' });
    await form.getByLabel('Name', { exact: true }).fill('greet');
    await form.getByLabel('Description', { exact: true }).fill('A greeting');
    await form.getByLabel('Template').fill('Say hello to {{who}} in a {{tone}} tone.');
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByLabel('Argument 1 name').fill('who');
    await form.locator('[data-argument="0"]').getByLabel('Required').check();
    await form.getByRole('button', { name: 'Save skill' }).click();
    const templateError = form.locator('#new-skill-template-error');
    await templateError.waitFor();
    expect(await templateError.textContent()).toBe('{{tone}} does not name a declared argument (who)');
    expect((await get<{ skills: unknown[] }>('/skills')).skills).toEqual([]);

    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByLabel('Argument 2 name').fill('tone');
    await form.locator('[data-argument="1"]').getByLabel('Values').fill('warm, dry');
    await form.getByRole('button', { name: 'Save skill' }).click();
    const row = section.locator('li[data-skill="greet"]');
    await row.waitFor();
    expect((await get<{ skill: unknown }>('/skills/greet')).skill).toMatchObject({
      template: 'Say hello to {{who}} in a {{tone}} tone.',
      arguments: [
        { name: 'who', required: true },
        { name: 'tone', values: ['warm', 'dry'] },
      ],
    });
    await row.getByText('Template and preview').click();
    await row.getByLabel('who').fill('Ada');
    await row.getByLabel('tone').selectOption('dry');
    await row.getByRole('button', { name: 'Render preview' }).click();
    const preview = row.locator('pre[data-preview="greet"]');
    await preview.waitFor();
    expect(await preview.textContent()).toBe('Say hello to Ada in a dry tone.');
    if (SHOTS) await section.screenshot({ path: join(SHOTS, 'bot-skill.png') });

    await row.getByRole('button', { name: 'Delete skill' }).click();
    await row.getByRole('button', { name: 'Delete greet?' }).click();
    await page.getByRole('heading', { name: 'Skills (0)' }).waitFor();
    expect((await get<{ skills: unknown[] }>('/skills')).skills).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('makes a workflow in the form: a bad reference is shown under its step; the JSON mode round-trips', async () => {
    const section = page.locator('section[aria-labelledby="bot-workflows-title"]');
    await section.getByRole('button', { name: 'New workflow' }).click();
    const form = section.getByRole('form', { name: 'New workflow' });
    await form.getByLabel('Name', { exact: true }).fill('relay');
    // The tools offered are the bot's: the gate server's, by public name.
    const options = await form.getByLabel('Tool').first().locator('option').allTextContents();
    expect(options).toEqual(['gate__fetch', 'gate__echo']);
    await form.getByLabel('Tool').first().selectOption('gate__echo');
    await form.getByLabel('Arguments (JSON)').first().fill('{"text": "hello {{input.who}}"}');
    await form.getByRole('button', { name: 'Add step' }).click();
    await form.getByLabel('Step 2 id').fill('wait');
    await form.getByLabel('Tool').nth(1).selectOption('gate__fetch');
    await form.getByLabel('Arguments (JSON)').nth(1).fill('{"url": "{{input.url}}"}');
    await form.getByRole('button', { name: 'Add step' }).click();
    await form.getByLabel('Step 3 id').fill('last');
    await form.getByLabel('Tool').nth(2).selectOption('gate__echo');
    await form.getByLabel('Arguments (JSON)').nth(2).fill('{"text": "{{steps.later.text}}"}');
    await form.getByRole('button', { name: 'Save workflow' }).click();
    const stepError = form.locator('[data-step-error="2"]');
    await stepError.waitFor();
    expect(await stepError.textContent()).toBe(
      'Step 3: arguments.text: {{steps.later.text}} refers to step "later", which does not exist',
    );
    expect(await form.locator('[data-step-error]').count()).toBe(1);
    expect((await get<{ workflows: unknown[] }>('/workflows')).workflows).toEqual([]);
    // In JSON mode the same error names its field, under the JSON.
    await form.getByRole('button', { name: 'Edit as JSON' }).click();
    await form.getByRole('button', { name: 'Save workflow' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'steps.2.arguments.text: {{steps.later.text}} refers to step "later", which does not exist' })
      .waitFor();
    await form.getByRole('button', { name: 'Edit as a form' }).click();
    expect((await get<{ workflows: unknown[] }>('/workflows')).workflows).toEqual([]);

    await form.getByLabel('Arguments (JSON)').nth(2).fill('{"text": "{{steps.wait.text}} after {{steps.first.text}}"}');
    await form.getByRole('button', { name: 'Edit as JSON' }).click();
    const json = form.getByLabel('Workflow (JSON)');
    const asJson = JSON.parse(await json.inputValue());
    expect(asJson.steps.map((s: { id: string; tool: string }) => [s.id, s.tool])).toEqual([
      ['first', 'gate__echo'],
      ['wait', 'gate__fetch'],
      ['last', 'gate__echo'],
    ]);
    asJson.description = 'Echo, fetch, echo';
    asJson.steps[0].timeoutMs = 5000;
    await json.fill(JSON.stringify(asJson, null, 2));
    await form.getByRole('button', { name: 'Edit as a form' }).click();
    expect(await form.getByLabel('Description').inputValue()).toBe('Echo, fetch, echo');
    expect(await form.getByLabel('Timeout (ms)').first().inputValue()).toBe('5000');
    expect(JSON.parse(await form.getByLabel('Arguments (JSON)').nth(1).inputValue())).toEqual({ url: '{{input.url}}' });
    await form.getByRole('button', { name: 'Save workflow' }).click();
    await section.locator('li[data-workflow="relay"]').waitFor();
    expect((await get<{ workflow: unknown }>('/workflows/relay')).workflow).toMatchObject({
      description: 'Echo, fetch, echo',
      steps: [
        { id: 'first', tool: 'gate__echo', arguments: { text: 'hello {{input.who}}' }, timeoutMs: 5000 },
        { id: 'wait', tool: 'gate__fetch', arguments: { url: '{{input.url}}' } },
        { id: 'last', tool: 'gate__echo', arguments: { text: '{{steps.wait.text}} after {{steps.first.text}}' } },
      ],
    });
    expect(pageErrors).toEqual([]);
  });

  it('runs it: the first step shows succeeded from its event while the second is held, then the output', async () => {
    const row = page.locator('li[data-workflow="relay"]');
    await row.getByText('Run relay').click();
    const step = (id: string) => row.locator(`tr[data-run-step="${id}"]`);
    expect(await step('first').getAttribute('data-status')).toBe('pending');
    await row.getByLabel('Input (JSON)').fill(JSON.stringify({ who: 'Ada', url: held.url }));
    await row.getByRole('button', { name: 'Run workflow' }).click();
    await held.arrived();
    await row.locator('tr[data-run-step="first"][data-status="succeeded"][data-from="event"]').waitFor();
    // The run has not answered: the second step is held, shown running, the third pending.
    expect(await step('wait').getAttribute('data-status')).toBe('running');
    expect(await step('last').getAttribute('data-status')).toBe('pending');
    expect(await row.getByRole('button', { name: 'Running…' }).isDisabled()).toBe(true);
    expect(await step('first').locator('td.num').textContent()).toMatch(/^\d+ ms$/);
    if (SHOTS)
      await page
        .locator('section[aria-labelledby="bot-workflows-title"]')
        .screenshot({ path: join(SHOTS, 'bot-workflow-run.png') });
    // The memories, skills and workflows with the run showing and both forms open: no WCAG 2.2 AA violation
    // (the rest of the tab is the accessibility item's).
    await page.getByRole('button', { name: 'New skill' }).click();
    await page.getByRole('button', { name: 'New workflow' }).click();
    // Evaluated through the debugger, as a tool would inject it: the page's CSP allows no inline script.
    await page.evaluate(await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = (await page.evaluate(
      "axe.run({ include: [['section.content-section']] }, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
    )) as string[];
    expect(violations).toEqual([]);
    await page.getByRole('form', { name: 'New workflow' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('form', { name: 'New skill' }).getByRole('button', { name: 'Cancel' }).click();
    held.release(200, 'pong');
    await row.locator('.run-output').waitFor();
    expect(await row.locator('.run-output pre').textContent()).toContain('pong after hello Ada');
    for (const id of ['first', 'wait', 'last']) expect(await step(id).getAttribute('data-status')).toBe('succeeded');
    expect(await step('wait').getAttribute('data-from')).toBe('event');
    expect(pageErrors).toEqual([]);
  });

  it('shows a failed step with its error and the skipped one; deletes the workflow after confirming', async () => {
    const row = page.locator('li[data-workflow="relay"]');
    await row.getByRole('button', { name: 'Run workflow' }).click();
    await held.arrived();
    held.release(500, 'not today');
    await row.locator('tr[data-run-step="wait"][data-status="failed"]').waitFor();
    expect(await row.locator('tr[data-run-step="wait"]').textContent()).toContain(
      'step "wait" (gate__fetch) failed: not today',
    );
    await row.locator('tr[data-run-step="last"][data-status="skipped"]').waitFor();
    await row.getByRole('alert').filter({ hasText: 'Failed: step "wait"' }).waitFor();
    expect(await row.locator('.run-output').count()).toBe(0);

    // At 390 px, with the run, a skill form and the workflow form open, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'New skill' }).click();
    await page.getByRole('button', { name: 'Add argument' }).click();
    await row.getByRole('button', { name: 'Edit workflow' }).click();
    await page.getByRole('form', { name: 'Edit workflow relay' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.getByRole('form', { name: 'Edit workflow relay' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('form', { name: 'New skill' }).getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });

    await row.getByRole('button', { name: 'Delete workflow' }).click();
    await row.getByRole('button', { name: 'Delete relay?' }).click();
    await page.getByRole('heading', { name: 'Workflows (0)' }).waitFor();
    expect((await get<{ workflows: unknown[] }>('/workflows')).workflows).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
