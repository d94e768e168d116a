/**
 * Import servers from the servers page, in a real headless Chromium against the real service
 * (`POST /api/servers/import`, what `bnity mcp import` does): a Claude Desktop config pasted
 * adds its servers (a name boternity does not take renamed, a secret-looking env value moved
 * to the keystore, a name already present skipped), which then connect; a VS Code `mcp.json`
 * (JSONC) chosen as a file with Replace ticked replaces one; JSON that is not a client config,
 * and an entry the API refuses, are one line under the JSON with the config file unchanged and
 * the text kept. No axe violations in the open panel.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeystore } from '../../../src/storage/keystore.js';
import { runAxe } from '../../support/axe-run.js';
import { launchChromium } from '../../support/find-chromium.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const node = process.execPath;

describe('import servers in the web UI', { timeout: 90_000 }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const panel = () => page.getByRole('form', { name: 'Import servers' });
  const json = () => panel().getByLabel('Config JSON', { exact: true });
  const fileServers = async () =>
    JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers as Record<string, { args?: string[] }>;

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny: { command: node, args: [TINY_SERVER] } } });
    browser = await launchChromium();
    // bypassCSP: axe is injected as an inline script.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${svc.service.url}/`);
    await page.getByLabel('Admin token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-server="tiny"]').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('says in one line what is wrong with JSON that is not a client config, and sends nothing', async () => {
    const open = page.getByRole('button', { name: 'Import from Claude Desktop, Cursor or VS Code' });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.click();
    await panel().waitFor();
    const before = await readFile(svc.configPath, 'utf8');
    await json().fill('{"bots": {}}');
    await panel().getByRole('button', { name: 'Import', exact: true }).click();
    const error = panel().locator('#import-json-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('no "mcpServers" (or VS Code "servers") in this JSON');
    expect(await json().getAttribute('aria-describedby')).toBe('import-json-error');
    expect(await json().getAttribute('aria-invalid')).toBe('true');
    await json().fill('{"mcpServers": {"a": ');
    await panel().getByRole('button', { name: 'Import', exact: true }).click();
    await waitFor(async () => (await error.textContent())?.startsWith('not JSON: '), { what: 'the JSON error' });
    expect(await json().inputValue()).toBe('{"mcpServers": {"a": ');
    expect(await readFile(svc.configPath, 'utf8')).toBe(before);
    expect((await runAxe(page)).violations).toEqual([]);
  });

  it('imports a pasted Claude Desktop config: added, renamed, secret moved, the present one skipped', async () => {
    const claude = {
      mcpServers: {
        tiny: { command: node, args: [TINY_SERVER, '--other'] },
        'Brave Search': { command: node, args: [TINY_SERVER] },
        fresh: { command: node, args: [TINY_SERVER], env: { API_TOKEN: 'tok-import-5e1f' } },
      },
    };
    await json().fill(JSON.stringify(claude, null, 2));
    await panel().getByRole('button', { name: 'Import', exact: true }).click();
    const result = panel().locator('.import-result li');
    await result.first().waitFor();
    const lines = await result.allTextContents();
    const renamed = lines.find((l) => l.startsWith('Renamed "Brave Search" to '));
    const newName = renamed?.match(/to (\S+) /)?.[1] ?? '';
    expect(newName).toBe('Brave-Search');
    expect(lines[0]).toBe(`Added ${newName}, fresh.`);
    expect(lines).toContain('Skipped (already present; tick Replace to replace): tiny.');
    const moved = lines.find((l) => l.startsWith('fresh: API_TOKEN moved to the keystore as '));
    expect(moved).toBeDefined();
    expect(await panel().locator('#import-json-error').count()).toBe(0);
    // The file has them; the present one is as it was; the secret is in the keystore, not the file.
    const servers = await fileServers();
    expect(Object.keys(servers).sort()).toEqual([newName, 'fresh', 'tiny'].sort());
    expect(servers.tiny?.args).toEqual([TINY_SERVER]);
    expect(await readFile(svc.configPath, 'utf8')).not.toContain('tok-import-5e1f');
    const keystore = await openKeystore({ home: svc.home, env: {} });
    expect(await keystore.names()).toHaveLength(1);
    // The list follows: the new servers' rows connect.
    await page.locator(`tr[data-server="${newName}"][data-state="connected"]`).waitFor({ timeout: 30_000 });
    await page.locator('tr[data-server="fresh"][data-state="connected"]').waitFor({ timeout: 30_000 });
  });

  it('imports a VS Code mcp.json chosen as a file, Replace ticked: the present one replaced', async () => {
    const vscode = `{
  // the workspace's servers
  "servers": {
    "tiny": { "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(TINY_SERVER)}, "--replaced"], },
  },
}`;
    await panel()
      .getByLabel('Config file', { exact: true })
      .setInputFiles({ name: 'mcp.json', mimeType: 'application/json', buffer: Buffer.from(vscode) });
    await waitFor(async () => (await json().inputValue()) === vscode, { what: 'the file read into the field' });
    await panel().getByLabel('Replace servers whose names are already present').check();
    await panel().getByRole('button', { name: 'Import', exact: true }).click();
    await panel().locator('.import-result li', { hasText: 'Replaced tiny.' }).waitFor();
    expect(await panel().locator('.import-result li').first().textContent()).toBe('Nothing added.');
    expect((await fileServers()).tiny?.args).toEqual([TINY_SERVER, '--replaced']);
  });

  it('an entry the API refuses: its one line under the JSON, nothing written, the text kept', async () => {
    const before = await readFile(svc.configPath, 'utf8');
    const bad = JSON.stringify({ mcpServers: { broken: { command: 42 } } });
    const refusal = await svc.send<{ error: { message: string } }>('POST', '/api/servers/import', {
      servers: { broken: { command: 42 } },
    });
    expect(refusal.status).toBe(400);
    await json().fill(bad);
    await panel().getByRole('button', { name: 'Import', exact: true }).click();
    const error = panel().locator('#import-json-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(refusal.body.error.message);
    expect(await panel().locator('.import-result li').count()).toBe(0);
    expect(await json().inputValue()).toBe(bad);
    expect(await readFile(svc.configPath, 'utf8')).toBe(before);
    expect(pageErrors).toEqual([]);
  });
});
