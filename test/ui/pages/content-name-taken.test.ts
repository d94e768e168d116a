/**
 * "New skill" and "New workflow" with a name the bot already has, in a real headless Chromium
 * against the real service: `PUT` creates or overwrites, so the forms refuse the name with one
 * line next to the Name field (linked by aria-describedby) and send nothing; the skill and the
 * workflow the API has are unchanged, and what was typed stays. Editing that very item still
 * saves.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../../support/fixtures.js';
import { openSignedInPage } from '../../support/signed-in-page.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

describe('a new skill or workflow may not take a name the bot has', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const puts: string[] = [];

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    expect((await svc.send('POST', '/api/bots', { slug: 'scout', name: 'Scout' })).status).toBe(201);
    const skill = await svc.send('PUT', '/api/bots/scout/skills/greet', { template: 'Hello', arguments: [] });
    expect(skill.status).toBe(201);
    const workflow = await svc.send('PUT', '/api/bots/scout/workflows/daily', {
      steps: [{ id: 'first', tool: 'tiny__echo', arguments: { text: 'hi' } }],
    });
    expect(workflow.status).toBe(201);
    ({ browser, page } = await openSignedInPage(svc.service.url, pageErrors));
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(new URL(request.url()).pathname);
    });
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    await page.evaluate(`location.hash = '#/bots/scout'`);
    await page.getByRole('heading', { name: 'Skills (1)' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('New skill named like an existing one: one line next to Name, nothing sent, the skill unchanged', async () => {
    const section = page.locator('section[aria-labelledby="bot-skills-title"]');
    await section.getByRole('button', { name: 'New skill' }).click();
    const form = section.getByRole('form', { name: 'New skill' });
    const name = form.getByLabel('Name', { exact: true });
    await name.fill(' greet');
    await form.getByLabel('Template').fill('Replaced!');
    await form.getByRole('button', { name: 'Save skill' }).click();
    const error = form.getByRole('alert').filter({ hasText: 'already has' });
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'this bot already has a skill named "greet": pick another name, or edit that skill',
    );
    const errorId = await error.getAttribute('id');
    expect((await name.getAttribute('aria-describedby'))?.split(' ')).toContain(errorId);
    expect(await form.getByLabel('Template').inputValue()).toBe('Replaced!');
    expect(puts).toEqual([]);
    const kept = await svc.api<{ skills: { name: string; template: string }[] }>('/api/bots/scout/skills');
    expect(kept.body.skills).toEqual([expect.objectContaining({ name: 'greet', template: 'Hello' })]);
    // Another name saves.
    await name.fill('farewell');
    await form.getByRole('button', { name: 'Save skill' }).click();
    await page.getByRole('heading', { name: 'Skills (2)' }).waitFor();
    expect(puts).toEqual(['/api/bots/scout/skills/farewell']);
  });

  it('editing a skill keeps its own name', async () => {
    const row = page.locator('[data-skill="greet"]');
    await row.getByRole('button', { name: 'Edit skill' }).click();
    const form = page.getByRole('form', { name: 'Edit skill greet' });
    await form.getByLabel('Template').fill('Hello again');
    await form.getByRole('button', { name: 'Save skill' }).click();
    await form.waitFor({ state: 'detached' });
    const skills = (await svc.api<{ skills: { name: string; template: string }[] }>('/api/bots/scout/skills')).body;
    expect(skills.skills.find((s) => s.name === 'greet')?.template).toBe('Hello again');
  });

  it('New workflow named like an existing one: one line next to Name, nothing sent, the workflow unchanged', async () => {
    puts.length = 0;
    const section = page.locator('section[aria-labelledby="bot-workflows-title"]');
    await section.getByRole('button', { name: 'New workflow' }).click();
    const form = section.getByRole('form', { name: 'New workflow' });
    const name = form.getByLabel('Name', { exact: true });
    await name.fill('daily');
    await form.getByRole('button', { name: 'Save workflow' }).click();
    const error = form.getByRole('alert').filter({ hasText: 'already has' });
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'this bot already has a workflow named "daily": pick another name, or edit that workflow',
    );
    expect((await name.getAttribute('aria-describedby'))?.split(' ')).toContain(await error.getAttribute('id'));
    expect(puts).toEqual([]);
    const kept = await svc.api<{ workflows: { name: string; steps: { id: string }[] }[] }>('/api/bots/scout/workflows');
    expect(kept.body.workflows).toEqual([
      expect.objectContaining({ name: 'daily', steps: [expect.objectContaining({ id: 'first' })] }),
    ]);
    expect(pageErrors).toEqual([]);
  });
});
