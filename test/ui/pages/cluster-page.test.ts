/**
 * The UI of a fleet (cluster mode, SPEC 9) in a real headless Chromium against two real
 * replicas on one PostgreSQL (the suite's embedded one, a database of this file's own): the
 * navigation offers **Cluster**, which lists both replicas as `GET /api/cluster` has them
 * (alive, this page's one marked, one leader, each one's servers), and a replica stopped shows
 * `stopped` on **Refresh**; the servers list gets a replica column saying whose connections it
 * shows. No axe violations on the Cluster page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from '../../support/axe-run.js';
import { launchChromium } from '../../support/find-chromium.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { createPostgresDatabase } from '../../support/test-db.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const config = { mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } };

describe('a fleet in the web UI', { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let one: TestService;
  let two: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const nav = () => page.getByRole('navigation', { name: 'Pages' });
  const replicaRow = (id: string) => page.locator(`tr[data-replica="${id}"]`);
  const start = (id: string) =>
    startTestService(config, { env: { BOTERNITY_DATABASE_URL: database.url, BOTERNITY_REPLICA_ID: id } });

  beforeAll(async () => {
    database = await createPostgresDatabase();
    one = await start('r1');
    two = await start('r2');
    for (const replica of [one, two])
      await waitFor(async () => (await replica.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
    browser = await launchChromium();
    // bypassCSP: axe is injected as an inline script.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${one.service.url}/`);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-server="tiny"][data-state="connected"]').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await two?.stop();
    await one?.stop();
    await database?.drop();
  });

  it("the servers list has a replica column: this page's replica's connections", async () => {
    await page.getByRole('columnheader', { name: 'replica' }).waitFor();
    expect(await page.locator('tr[data-server="tiny"] td[data-label="replica"]').textContent()).toBe('r1');
    expect(await page.locator('.fleet-note').textContent()).toContain('the connections of replica r1');
  });

  it('Cluster lists the replicas as the API has them; a stopped one shows on Refresh', async () => {
    await nav().getByRole('link', { name: 'Cluster', exact: true }).click();
    await page.getByRole('heading', { name: 'Cluster', level: 1 }).waitFor();
    await replicaRow('r2').waitFor();
    const api = (await one.api<{ replicas: { id: string; status: string; self: boolean }[] }>('/api/cluster')).body;
    expect(api.replicas.map((r) => [r.id, r.status, r.self])).toEqual([
      ['r1', 'alive', true],
      ['r2', 'alive', false],
    ]);
    expect(await replicaRow('r1').getAttribute('data-status')).toBe('alive');
    expect(await replicaRow('r2').getAttribute('data-status')).toBe('alive');
    expect(await replicaRow('r1').getByText("this page's replica").count()).toBe(1);
    expect(await replicaRow('r2').getByText("this page's replica").count()).toBe(0);
    for (const id of ['r1', 'r2'])
      expect(await replicaRow(id).locator('li[data-server="tiny"]').getAttribute('data-state')).toBe('connected');
    // One leader, once one has claimed it.
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await page.getByText('leader (run-once jobs)').count()) === 1;
      },
      { what: 'one leader shown' },
    );
    expect(await page.locator('p.summary').textContent()).toMatch(/^2 of 2 replicas alive on one PostgreSQL database/);
    expect((await runAxe(page)).violations).toEqual([]);
    await two.stop();
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await replicaRow('r2').getAttribute('data-status')) === 'stopped';
      },
      { what: 'r2 shown stopped' },
    );
    expect(await replicaRow('r2').locator('td').first().textContent()).toBe('○ stopped');
    expect(pageErrors).toEqual([]);
  });
});
