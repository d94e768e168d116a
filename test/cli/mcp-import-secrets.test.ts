// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secret:NAME}` and `${env:VAR}` are config syntax under test, not templates
/**
 * `bnity mcp import` keeps secrets out of `boternity.json` (issue 18 item 6): env values whose
 * names look secret go to the keystore, the config gets `${secret:…}` references and is 0600,
 * the output names what moved (never a value); `--keep-secrets-inline` keeps them; through the
 * service, `--json` says which file was read. The imported server gets the secret at connect.
 * The first import runs the binary; the other commands run in this process (`main`).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openKeystore } from '../../src/storage/keystore.js';
import { fixtureServer } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { noServiceEnv } from '../support/no-service.js';
import { runMain } from '../support/run-main.js';
import { runBnity } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';
import { startTestService, TEST_TOKEN } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const ENV_SERVER = fixtureServer('env-server.mjs');
const SECRET = 's3cr3t-0123456789';
const tempDir = useTempDirs('bnity-import-secrets-');
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ env } = await noServiceEnv());
});

/** A Claude Desktop file with one server holding a token, a password and a plain value in its env. */
async function desktopFile(dir: string): Promise<string> {
  const file = join(dir, 'claude_desktop_config.json');
  const envy = {
    command: process.execPath,
    args: [ENV_SERVER],
    env: { API_TOKEN: SECRET, db_password: 'hunter2', LOG_DIR: '/tmp/logs', FROM_ENV_KEY: '${env:HOME}' },
  };
  await writeFile(file, JSON.stringify({ mcpServers: { envy } }));
  return file;
}

describe('bnity mcp import and secrets', () => {
  it('offline: moves secret-looking env values to the keystore, writes references and a 0600 config', async () => {
    const home = await tempDir();
    const config = join(home, 'boternity.json');
    await writeFile(config, '{ "mcpServers": {} }\n', { mode: 0o644 });
    const file = await desktopFile(home);
    const run = await runBnity(['mcp', 'import', '--from', file, '--home', home], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'added 1: envy\nmoved 2 secret env values to the keystore (--keep-secrets-inline keeps them in the config): envy API_TOKEN as ${secret:envy.API_TOKEN}, envy db_password as ${secret:envy.db_password}\n',
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    const text = await readFile(config, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text).mcpServers.envy.env).toEqual({
      API_TOKEN: '${secret:envy.API_TOKEN}',
      db_password: '${secret:envy.db_password}',
      LOG_DIR: '/tmp/logs',
      FROM_ENV_KEY: '${env:HOME}',
    });
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    const keystore = await openKeystore({ home, env: {} });
    expect(await keystore.get('envy.API_TOKEN')).toBe(SECRET);
    expect(await keystore.get('envy.db_password')).toBe('hunter2');
    const list = await runMain(['mcp', 'credential', 'list', '--home', home], env);
    expect(list.stdout).toBe('envy.API_TOKEN\nenvy.db_password\n');
  });

  it('offline: --keep-secrets-inline keeps them in the file (still 0600), and stores nothing', async () => {
    const home = await tempDir();
    const file = await desktopFile(home);
    const run = await runMain(['mcp', 'import', '--from', file, '--home', home, '--keep-secrets-inline'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('added 1: envy\n');
    const config = join(home, 'boternity.json');
    expect(JSON.parse(await readFile(config, 'utf8')).mcpServers.envy.env.API_TOKEN).toBe(SECRET);
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect(await (await openKeystore({ home, env: {} })).names()).toEqual([]);
  });

  it('through the service: --json names the file read and what moved; the server starts with the secret', async () => {
    const svc = await startTestService({ mcpServers: {} });
    try {
      const file = await desktopFile(await tempDir());
      const run = await runMain(['mcp', 'import', '--from', file, '--home', svc.home, '--json'], {
        ...env,
        BOTERNITY_ADMIN_TOKEN: TEST_TOKEN,
        BOTERNITY_URL: svc.service.url,
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        renamed: [],
        added: ['envy'],
        skipped: [],
        replaced: [],
        movedSecrets: [
          { server: 'envy', variable: 'API_TOKEN', credential: 'envy.API_TOKEN' },
          { server: 'envy', variable: 'db_password', credential: 'envy.db_password' },
        ],
        from: file,
        via: 'service',
      });
      expect(run.stdout).not.toContain(SECRET);
      const text = await readFile(svc.configPath, 'utf8');
      expect(text).not.toContain(SECRET);
      expect(text).toContain('"API_TOKEN": "${secret:envy.API_TOKEN}"');
      expect((await stat(svc.configPath)).mode & 0o777).toBe(0o600);
      expect(await (await openKeystore({ home: svc.home, env: {} })).get('envy.API_TOKEN')).toBe(SECRET);
      // The reference is read from the keystore when the server starts.
      await waitFor(async () => (await svc.server('envy'))?.state === 'connected', { what: 'envy connected' });
      const agent = await connectHttpClient(`${svc.service.url}/mcp`);
      expect((await agent.callTool({ name: 'envy__env', arguments: { name: 'API_TOKEN' } })).content).toEqual([
        { type: 'text', text: SECRET },
      ]);
      await agent.close();
    } finally {
      await svc.stop();
    }
  });
});
