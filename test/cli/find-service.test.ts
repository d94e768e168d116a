/**
 * The CLI finds the service of a home on any port through the URL it recorded (issue 18
 * item 6): `bnity mcp list` and the stdio bridge need no `--url`; a stale record is ignored;
 * with nothing set and no service, `bnity mcp serve --stdio` says where it looked and how to
 * point it at the service, instead of starting a standalone copy with a fresh default config.
 */
import { spawn } from 'node:child_process';
import { access, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { SERVICE_URL_FILE } from '../../src/storage/service-url.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { noServiceEnv } from '../support/no-service.js';
import { BNITY, runBnity } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';
import { startTestService, TEST_TOKEN } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const tempDir = useTempDirs('bnity-find-');
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('finding the service of a home', () => {
  it('reads the URL a service on a non-default port recorded: list and the bridge work without --url', async () => {
    const { env, url: defaultUrl } = await noServiceEnv();
    const svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    try {
      await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
      const record = join(svc.home, SERVICE_URL_FILE);
      expect((await stat(record)).mode & 0o777).toBe(0o600);
      expect(svc.service.url).not.toBe(defaultUrl);
      const withToken = { ...env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN };
      const list = await runBnity(['mcp', 'list', '--json', '--home', svc.home], withToken);
      expect(list.stderr).toBe('');
      expect(JSON.parse(list.stdout).servers).toEqual([expect.objectContaining({ name: 'tiny', state: 'connected' })]);

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BNITY, 'mcp', 'serve', '--stdio', '--home', svc.home],
        env: { ...process.env, ...withToken } as Record<string, string>,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d) => {
        stderr += d;
      });
      const client = new Client({ name: 'desktop', version: '1' });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('tiny__echo');
      expect(stderr).toContain(`bnity: serving ${svc.service.url}/mcp on stdio`);
      await client.close();

      // A clean stop removes the record.
      await svc.stop();
      expect(await exists(record)).toBe(false);
    } finally {
      await svc.stop();
    }
  });

  it('ignores a record left by a process that is gone', async () => {
    const { env, url } = await noServiceEnv();
    const home = await tempDir();
    await writeFile(join(home, 'boternity.json'), JSON.stringify({ mcpServers: {} }));
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    await writeFile(
      join(home, SERVICE_URL_FILE),
      JSON.stringify({ url: 'http://127.0.0.1:9', pid: child.pid, startTime: '1' }),
    );
    const list = await runBnity(['mcp', 'list', '--home', home], env);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(`bnity: no service at ${url}; showing ${join(home, 'boternity.json')}\n`);
  });

  it('with nothing set and no service, the bridge says where it looked instead of starting a fresh copy', async () => {
    const { env, url } = await noServiceEnv();
    const user = await tempDir();
    const home = join(user, '.boternity');
    const bare = { ...env, HOME: user, BOTERNITY_HOME: '' };
    const refused = await runBnity(['mcp', 'serve', '--stdio'], bare, user);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `bnity: no boternity service in ${home} nor at ${url}: start 'bnity serve', or point at it with BOTERNITY_HOME (its data directory) or BOTERNITY_URL (its address); --standalone serves ${home} without a service\n`,
    );
    // Nothing was made: no default config, no home.
    expect(await exists(home)).toBe(false);

    // Asked for, standalone still runs (here it ends at once: stdin is closed).
    const standalone = await runBnity(['mcp', 'serve', '--stdio', '--standalone'], bare, user);
    expect(standalone.code).toBe(0);
    expect(await exists(join(home, 'boternity.json'))).toBe(true);
  });
});
