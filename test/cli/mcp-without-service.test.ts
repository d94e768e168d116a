/**
 * `bnity mcp …` with no service: what works on the files says so on stderr, what needs the
 * service fails with exit 1 saying so, a home whose service does not answer is not edited
 * behind its back, and every bad command line is exit 2 with one line, before anything runs.
 * add, remove and import (from a Claude Desktop file, twice) edit the config file. The
 * commands run in this process (`main`); the one about a service's pid file runs the binary.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStartTime } from '../../src/upstream/process-tree.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { noServiceEnv } from '../support/no-service.js';
import { runMain } from '../support/run-main.js';
import { runBnity } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-offline-');
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
let env: NodeJS.ProcessEnv;
let url: string;
beforeAll(async () => {
  ({ env, url } = await noServiceEnv());
});

/** A home with a config file naming one server. */
async function homeWithConfig(): Promise<string> {
  const home = await tempDir();
  const config = { mcpServers: { tiny: { command: process.execPath, args: ['tiny.mjs'] } } };
  await writeFile(join(home, 'boternity.json'), JSON.stringify(config, null, 2));
  return home;
}

describe('bnity mcp without a service', () => {
  it('list, status and presets read the files and say so on stderr', async () => {
    const home = await homeWithConfig();
    const list = await runMain(['mcp', 'list', '--json', '--home', home], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).servers).toEqual([expect.objectContaining({ name: 'tiny', state: 'stopped' })]);
    expect(list.stderr).toBe(`bnity: no service at ${url}; showing ${join(home, 'boternity.json')}\n`);
    const status = await runMain(['mcp', 'status', 'tiny', '--home', home], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^state\s+stopped$/m);
    const ghost = await runMain(['mcp', 'status', 'ghost', '--home', home], env);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/bnity: server "ghost" is not configured\n$/);
    const presets = await runMain(['mcp', 'presets', '--home', home], env);
    expect(presets.code).toBe(0);
    expect(presets.stdout).toMatch(/^PRESET\s+INSTALLED\s+NEEDS\s+DESCRIPTION$/m);
    expect(presets.stdout).toMatch(/^filesystem\s+yes\s/m);
    expect(presets.stderr).toBe(`bnity: no service at ${url}; listing the presets of this copy of boternity\n`);
  });

  it('commands that need the service fail with exit 1 and say so', async () => {
    const home = await homeWithConfig();
    const cases = [
      ['tools', 'tiny'],
      ['connect', 'tiny'],
      ['disconnect', 'tiny'],
      ['logs', 'tiny'],
      ['events'],
      ['test-tool', 'tiny', 'echo', '--arg', 'text=hi'],
      ['approve', 'tiny', 'echo'],
      ['quarantines'],
    ];
    const results = await Promise.all(cases.map((args) => runMain(['mcp', ...args, '--home', home], env)));
    results.forEach((r, i) => {
      expect(r.code, cases[i]?.join(' ')).toBe(1);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toMatch(
        new RegExp(`needs the running service: nothing answers at ${url} \\(connection refused\\)`),
      );
    });
  });

  it('refuses to work behind the back of a service that holds the home but does not answer', async () => {
    const home = await homeWithConfig();
    await writeFile(
      join(home, 'boternity.pid'),
      JSON.stringify({ pid: process.pid, startTime: readStartTime(process.pid) }),
    );
    // The real binary: a process other than the one the pid file names, and its exit code.
    const list = await runBnity(['mcp', 'list', '--home', home], env);
    expect(list.code).toBe(1);
    expect(list.stderr).toBe(
      `bnity: boternity (pid ${process.pid}) runs in ${home} but nothing answers at ${url}: give its address with --url or BOTERNITY_URL\n`,
    );
  });

  it('answers every bad command line with exit 2 and one line, touching nothing', async () => {
    const home = await homeWithConfig();
    const before = await readFile(join(home, 'boternity.json'), 'utf8');
    const cases: [string[], RegExp][] = [
      [['mcp', 'add', '../etc'], /invalid server name "\.\.\/etc"/],
      [['mcp', 'add', 'fs'], /'bnity mcp add fs' needs a command after --, --url URL or --preset P/],
      [['mcp', 'add', 'fs', '--preset', 'nope'], /unknown preset "nope": 'bnity mcp presets' lists them/],
      [['mcp', 'add', 'fs', '--url', 'http://x', '--', 'cmd'], /give --url, --preset or a command after --/],
      [['mcp', 'add', 'fs', '--url', 'http://x', '--transport', 'ws'], /--transport must be http or sse, got "ws"/],
      [['mcp', 'add', 'fs', '--url', 'http://x', '--header', 'NoColon'], /--header takes KEY:VALUE, got "NoColon"/],
      [['mcp', 'add', 'fs', '--env', 'NOEQUALS', '--', 'cmd'], /--env takes KEY=VALUE, got "NOEQUALS"/],
      [['mcp', 'add', 'fs', 'npx', '-y', 'pkg'], /unknown option '-y'; run 'bnity mcp add --help'/],
      [['mcp', 'test-tool', 'tiny', 'echo', '--arg', 'novalue'], /--arg takes KEY=VALUE, got "novalue"/],
      [['mcp', 'test-tool', 'tiny', 'echo', '--json-args', '{bad'], /--json-args is not JSON/],
      [['mcp', 'test-tool', 'tiny', 'echo', '--json-args', '[1]'], /--json-args must be a JSON object/],
      [['mcp', 'test-tool', 'tiny'], /missing required argument 'tool'; run 'bnity mcp test-tool --help'/],
      [['mcp', 'status', 'tiny', '--lines', '0'], /--lines must be a positive number, got "0"/],
      [['mcp', 'list', '--bogus'], /unknown option '--bogus'; run 'bnity mcp list --help'/],
      [['mcp', 'remove'], /missing required argument 'name'/],
      [['mcp', 'frob'], /unknown command "mcp frob": run 'bnity mcp --help' for the list/],
      [['mcp', 'serve', '--stdio', '--bot', 'a', '--server', 'b'], /give --bot or --server, not both/],
    ];
    const results = await Promise.all(cases.map(([args]) => runMain([...args, '--home', home], env)));
    results.forEach((r, i) => {
      const [args, message] = cases[i] as [string[], RegExp];
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^bnity: [^\n]+\n$/);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout, args.join(' ')).toBe('');
    });
    expect(await readFile(join(home, 'boternity.json'), 'utf8')).toBe(before);
  });

  it('add and remove edit the config file and say so', async () => {
    const home = await tempDir();
    const config = join(home, 'boternity.json');
    await writeFile(config, '{\n  "mcpServers": {}\n}\n');
    const added = await runMain(
      ['mcp', 'add', 'fs', '--preset', 'filesystem', '--json', '--home', home, '--', home],
      env,
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'fs', via: 'file' });
    expect(added.stderr).toBe(`bnity: no service at ${url}; added "fs" to ${config} (it applies at the next start)\n`);
    expect((await readJson(config)).mcpServers.fs).toEqual({ preset: 'filesystem', args: [home] });

    const duplicate = await runMain(['mcp', 'add', 'fs', '--home', home, '--', 'cmd'], env);
    expect(duplicate).toMatchObject({ code: 1, stderr: 'bnity: server "fs" already exists\n' });
    const removed = await runMain(['mcp', 'remove', 'fs', '--home', home], env);
    expect(removed).toMatchObject({ code: 0, stdout: 'removed server "fs"\n' });
    expect(removed.stderr).toBe(
      `bnity: no service at ${url}; removed "fs" from ${config} (it applies at the next start)\n`,
    );
    expect((await readJson(config)).mcpServers).toEqual({});
  });

  it('import --from claude-desktop adds the servers of its file; run twice, it adds nothing and says so', async () => {
    const home = await tempDir();
    const userHome = await tempDir();
    const config = join(home, 'boternity.json');
    await writeFile(config, '{ "mcpServers": {} }\n');
    const desktop = join(userHome, '.config', 'Claude');
    await mkdir(desktop, { recursive: true });
    const servers = {
      tiny: { command: process.execPath, args: [TINY_SERVER] },
      remote: { url: 'https://mcp.example/mcp' },
    };
    await writeFile(join(desktop, 'claude_desktop_config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
    const importEnv = { ...env, HOME: userHome, XDG_CONFIG_HOME: '' };
    const first = await runMain(['mcp', 'import', '--from', 'claude-desktop', '--home', home], importEnv);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('added 2: tiny, remote\n');
    expect(first.stderr).toMatch(
      /^bnity: no service at .*; imported into .*boternity\.json \(it applies at the next start\)\n$/,
    );
    expect(Object.keys((await readJson(config)).mcpServers).sort()).toEqual(['remote', 'tiny']);

    const again = await runMain(['mcp', 'import', '--home', home, '--json'], importEnv);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      via: 'file',
      added: [],
      skipped: ['tiny', 'remote'],
      replaced: [],
    });
    const people = await runMain(['mcp', 'import', '--home', home], importEnv);
    expect(people.stdout).toMatch(
      /^nothing added: every server of .*claude_desktop_config\.json is already configured\n/,
    );
    const missing = await runMain(['mcp', 'import', '--from', join(userHome, 'nope.json'), '--home', home], importEnv);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.json: cannot read config: file not found\n$/);
  });
});
