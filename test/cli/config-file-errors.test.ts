/**
 * Issue 17 items 1 and 2 as a user meets them, with real `bnity` processes: a config file
 * nested 10,000 deep is one line naming the file, line and column for `serve` and `mcp list`
 * (not "Maximum call stack size exceeded"); a running `bnity serve` whose file is edited that
 * way refuses it and stays up with its servers; `mcp add`/`remove`, with the service or
 * without, refuse to build on a file the service refuses, in one line, writing nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { noServiceEnv } from '../support/no-service.js';
import { runBnity, spawnServe } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

const tempDir = useTempDirs('bnity-cfgerr-');
const DEEP = `{"mcpServers": {}, "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
const TOKEN = 'config-errors-token';
const deepError = (file: string) =>
  `bnity: ${file}: invalid JSON at line 1, column 124: nested deeper than 100 levels\n`;

let offline: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ env: offline } = await noServiceEnv());
});

async function homeWith(text: string): Promise<{ home: string; file: string }> {
  const home = await tempDir();
  const file = join(home, 'boternity.json');
  await writeFile(file, text);
  return { home, file };
}

describe('a config file the service refuses, from the command line', { timeout: 60_000 }, () => {
  it('serve and mcp list name the file, line and column of a file nested 10,000 deep', async () => {
    const { home, file } = await homeWith(DEEP);
    const list = await runBnity(['mcp', 'list', '--home', home], offline);
    expect(list.code).toBe(1);
    expect(list.stderr).toBe(deepError(file));
    const serve = await runBnity(['serve', '--port', '0', '--home', home, '--config', file], offline);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toBe(deepError(file));
  });

  it('mcp add and remove without a service refuse to edit it, in one line, writing nothing', async () => {
    const text = '{"mcpServers": null}';
    const { home, file } = await homeWith(text);
    for (const args of [
      ['mcp', 'add', 'newone', '--home', home, '--', process.execPath, TINY_SERVER],
      ['mcp', 'remove', 'gone', '--home', home],
    ]) {
      const run = await runBnity(args, offline);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toBe(
        `bnity: ${file}: the file on disk is invalid, so it was not edited: invalid config: mcpServers (line 1, column 2): expected an object of servers by name, got null; fix the file or revert it, then try again (nothing was written)\n`,
      );
    }
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('a running serve refuses the hand edit, stays up with its server, and mcp add says why it cannot add', async () => {
    const { home, file } = await homeWith(
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
    );
    const serve = await spawnServe(['--port', '0', '--config', file], {
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: TOKEN,
    });
    const env = { BOTERNITY_URL: serve.url, BOTERNITY_ADMIN_TOKEN: TOKEN, BOTERNITY_HOME: home, BOTERNITY_CONFIG: '' };
    const tiny = async () => {
      const response = await fetch(`${serve.url}/api/servers`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return ((await response.json()) as { servers: ServerStatus[] }).servers.find((s) => s.name === 'tiny');
    };
    let exited = false;
    void serve.exited.then(() => {
      exited = true;
    });
    try {
      const before = await waitFor(async () => ((await tiny())?.state === 'connected' ? tiny() : null), {
        what: 'tiny connected',
      });
      await writeFile(file, DEEP);
      await waitFor(() => /nested deeper than 100 levels/.test(serve.stdout() + serve.stderr()), {
        what: 'the refusal logged',
      });
      const add = await runBnity(['mcp', 'add', 'newone', '--', process.execPath, TINY_SERVER], env);
      expect(add.code).toBe(1);
      expect(add.stderr).toBe(
        `bnity: ${file}: the file on disk is invalid, so it was not edited: invalid JSON at line 1, column 124: nested deeper than 100 levels; fix the file or revert it, then try again (nothing was written)\n`,
      );
      expect(await readFile(file, 'utf8')).toBe(DEEP);
      expect(exited).toBe(false);
      expect(await tiny()).toMatchObject({ state: 'connected', pid: before?.pid });
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
  });
});
