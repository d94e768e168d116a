/**
 * Issue 7's acceptance script for the CLI: with the service, add a filesystem server from its
 * preset, see it connected, list its tools, call list_directory, disconnect, connect, remove
 * it, parsing --json at every step; bad input changes nothing. The --json steps and the
 * refusals run in this process (`main`); what is printed for people comes from the real binary.
 * (Without a service: test/cli/mcp-without-service.test.ts.)
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { runMain } from '../support/run-main.js';
import { runBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('bnity mcp add/remove/import with a running service', () => {
  let svc: TestService;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  /** Run with --json (put before any `--`) and parse stdout; nothing may go to stderr. */
  const json = async <T>(...args: string[]): Promise<T> => {
    const cut = args.includes('--') ? args.indexOf('--') : args.length;
    const result = await runMain([...args.slice(0, cut), '--json', ...args.slice(cut)], env);
    expect(result.stderr, args.join(' ')).toBe('');
    expect(result.code, args.join(' ')).toBe(0);
    return JSON.parse(result.stdout) as T;
  };
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {}, bots: { helper: {} } });
    env = {
      BOTERNITY_ADMIN_TOKEN: TEST_TOKEN,
      BOTERNITY_URL: svc.service.url,
      BOTERNITY_HOME: svc.home,
      BOTERNITY_CONFIG: '',
    };
    dir = join(svc.home, 'shared-files');
    await mkdir(dir);
    await writeFile(join(dir, 'hello.txt'), 'hi');
  });
  afterAll(() => svc?.stop());

  it('adds fs from its preset, sees it connected, lists and calls its tools, disconnects, connects, removes it', async () => {
    const added = await json<{ via: string; server: ServerStatus }>(
      'mcp',
      'add',
      'fs',
      '--preset',
      'filesystem',
      '--',
      dir,
    );
    expect(added.via).toBe('service');
    expect(added.server).toMatchObject({ name: 'fs', state: 'connected' });
    expect(added.server.toolCount).toBeGreaterThan(5);
    expect((await readJson(svc.configPath)).mcpServers.fs).toEqual({ preset: 'filesystem', args: [dir] });

    const list = await json<{ servers: ServerStatus[] }>('mcp', 'list');
    expect(list.servers.find((s) => s.name === 'fs')?.state).toBe('connected');
    const tools = await json<{ tools: { name: string }[] }>('mcp', 'tools', 'fs');
    expect(tools.tools.map((t) => t.name)).toContain('list_directory');
    const called = await json<{ result: { content: { type: string; text: string }[]; isError?: boolean } }>(
      'mcp',
      'test-tool',
      'fs',
      'list_directory',
      '--arg',
      `path=${dir}`,
    );
    expect(called.result.isError ?? false).toBe(false);
    expect(called.result.content[0]?.text).toContain('hello.txt');

    expect((await json<{ server: ServerStatus }>('mcp', 'disconnect', 'fs')).server.state).toBe('disabled');
    expect((await json<{ server: ServerStatus }>('mcp', 'connect', 'fs')).server.state).toBe('connected');
    expect(await json('mcp', 'remove', 'fs')).toEqual({ name: 'fs', via: 'service', removed: true });
    expect((await json<{ servers: ServerStatus[] }>('mcp', 'list')).servers.map((s) => s.name)).not.toContain('fs');
    expect((await readJson(svc.configPath)).mcpServers.fs).toBeUndefined();
  });

  it("adds to a bot's view with --bot, and prints the first state for people", async () => {
    const added = await runBnity(['mcp', 'add', 'tiny', '--bot', 'helper', '--', process.execPath, TINY_SERVER], env);
    expect(added).toMatchObject({
      code: 0,
      stdout: [
        'added server "tiny" (and to bot "helper"): connected, 1 tool',
        'bot "helper" now sees 1: tiny (before 0: no servers)',
        'other bots do not see "tiny": a server a bot adds is only in the views of the bots that add it',
        '',
      ].join('\n'),
    });
    expect(added.stderr).toBe('');
    expect((await readJson(svc.configPath)).bots.helper.additionalServers).toEqual(['tiny']);
  });

  it("refuses a duplicate, a preset's missing requirement and an unknown bot, changing nothing", async () => {
    const before = await readFile(svc.configPath, 'utf8');
    const duplicate = await runMain(['mcp', 'add', 'tiny', '--', process.execPath, TINY_SERVER], env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toBe('bnity: server "tiny" already exists\n');
    const github = await runMain(['mcp', 'add', 'gh', '--preset', 'github'], env);
    expect(github.code).toBe(1);
    expect(github.stderr).toMatch(/^bnity: preset github needs a credential: bnity mcp credential set github-token/);
    const ghost = await runMain(['mcp', 'add', 'x', '--bot', 'ghost', '--', 'cmd'], env);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toBe('bnity: bot "ghost" does not exist\n');
    const removeGhost = await runMain(['mcp', 'remove', 'ghost'], env);
    expect(removeGhost).toMatchObject({ code: 1, stderr: 'bnity: server "ghost" is not configured\n' });
    expect(await readFile(svc.configPath, 'utf8')).toBe(before);
  });

  it('imports a client file through the service: the new servers start at once', async () => {
    const file = join(svc.home, 'cursor-mcp.json');
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { echo2: { command: process.execPath, args: [TINY_SERVER] } } }),
    );
    const first = await json<{ via: string; added: string[] }>('mcp', 'import', '--from', file);
    expect(first).toMatchObject({ via: 'service', added: ['echo2'] });
    await waitFor(async () => (await svc.server('echo2'))?.state === 'connected', { what: 'echo2 connected' });
    const again = await runBnity(['mcp', 'import', '--from', file], env);
    expect(again.stdout).toBe(
      `nothing added: every server of ${file} is already configured\nskipped 1 already configured: echo2 (--force replaces them)\n`,
    );
    expect(await json('mcp', 'import', '--from', file, '--force')).toMatchObject({ replaced: ['echo2'] });
  });
});
