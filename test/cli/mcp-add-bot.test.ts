/**
 * Issue 18 item 4: `bnity mcp add NAME --bot SLUG` works for a bot of the registry alone
 * (made with `bnity bot create`, no `bots.{slug}` in the config file), through the service
 * and on the files: the bot gets its view entry in the config file, the command says what
 * the bot sees now and before, and that no other bot lost a server; `--json` carries the
 * same. An unknown bot is one line and changes nothing. The first test runs the real binary;
 * the others run the command in this process (`main`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { noServiceEnv } from '../support/no-service.js';
import { runMain } from '../support/run-main.js';
import { runBnity } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const tiny = () => ({ command: process.execPath, args: [TINY_SERVER] });
const tempDir = useTempDirs('bnity-add-bot-');

type Views = {
  bot: { slug: string; before: string[]; after: string[]; gained: string[]; lost: string[] };
  others: unknown[];
};

describe('bnity mcp add --bot with a running service', () => {
  let svc: TestService;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { a: tiny(), b: tiny() },
      // `picky` adds `b`: b is opt-in, seen only by picky (and on /mcp).
      bots: { picky: { additionalServers: ['b'] } },
    });
    env = {
      BOTERNITY_ADMIN_TOKEN: TEST_TOKEN,
      BOTERNITY_URL: svc.service.url,
      BOTERNITY_HOME: svc.home,
      BOTERNITY_CONFIG: '',
    };
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
  }, 30_000);
  afterAll(() => svc?.stop());

  it('adds a server to a bot made with `bnity bot create`, saying what it sees now and before', async () => {
    const made = await runBnity(['bot', 'create', 'scout', '--name', 'Scout'], env);
    expect(made.code, made.stderr).toBe(0);
    expect((await readJson(svc.configPath)).bots.scout).toBeUndefined();

    const added = await runBnity(['mcp', 'add', 'c', '--bot', 'scout', '--', process.execPath, TINY_SERVER], env);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      [
        'added server "c" (and to bot "scout"): connected, 1 tool',
        'bot "scout" now sees 2: a, c (before 1: a)',
        'other bots do not see "c": a server a bot adds is only in the views of the bots that add it',
        '',
      ].join('\n'),
    );
    // The registry bot's view is now in the config file, as `bnity bot servers add` writes it.
    expect((await readJson(svc.configPath)).bots.scout).toEqual({ additionalServers: ['c'] });
    const shown = await svc.api<{ bot: { servers: string[]; source: string } }>('/api/bots/scout');
    expect(shown.body.bot).toMatchObject({ servers: ['a', 'c'], source: 'both' });
    // No other bot lost a server: picky still sees a and b.
    const picky = await svc.api<{ bot: { servers: string[] } }>('/api/bots/picky');
    expect(picky.body.bot.servers).toEqual(['a', 'b']);
  });

  it('--json carries the views before and after', async () => {
    const result = await runMain(
      ['mcp', 'add', 'd', '--bot', 'picky', '--json', '--', process.execPath, TINY_SERVER],
      env,
    );
    expect(result.stderr).toBe('');
    const answer = JSON.parse(result.stdout) as { name: string; via: string; views: Views };
    expect(answer).toMatchObject({ name: 'd', via: 'service' });
    expect(answer.views).toEqual({
      bot: { slug: 'picky', before: ['a', 'b'], after: ['a', 'b', 'd'], gained: ['d'], lost: [] },
      others: [],
    });
  });

  it('refuses an unknown bot with one line, adding nothing', async () => {
    const before = await readFile(svc.configPath, 'utf8');
    const ghost = await runMain(['mcp', 'add', 'x', '--bot', 'ghost', '--', process.execPath, TINY_SERVER], env);
    expect(ghost).toMatchObject({ code: 1, stderr: 'bnity: bot "ghost" does not exist\n', stdout: '' });
    expect(await readFile(svc.configPath, 'utf8')).toBe(before);
    expect((await svc.servers()).map((s) => s.name)).not.toContain('x');
  });
});

describe('bnity mcp add --bot without a service', () => {
  it('adds to a registry bot on the files, with the same report, and refuses an unknown bot', async () => {
    const { env, url } = await noServiceEnv();
    const home = await tempDir();
    const configPath = join(home, 'boternity.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { a: tiny() } }, null, 2));
    const made = await runMain(['bot', 'create', 'scout', '--name', 'Scout', '--home', home], env);
    expect(made.code, made.stderr).toBe(0);

    const before = await readFile(configPath, 'utf8');
    const ghost = await runMain(['mcp', 'add', 'x', '--bot', 'ghost', '--home', home, '--', 'cmd'], env);
    expect(ghost).toMatchObject({ code: 1, stderr: 'bnity: bot "ghost" does not exist\n' });
    expect(await readFile(configPath, 'utf8')).toBe(before);

    const added = await runMain(['mcp', 'add', 'c', '--bot', 'scout', '--home', home, '--', 'cmd'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toBe(
      `bnity: no service at ${url}; added "c" to ${configPath} (it applies at the next start)\n`,
    );
    expect(added.stdout).toBe(
      [
        'added server "c" (and to bot "scout")',
        'bot "scout" now sees 2: a, c (before 1: a)',
        'other bots do not see "c": a server a bot adds is only in the views of the bots that add it',
        '',
      ].join('\n'),
    );
    const config = await readJson(configPath);
    expect(config.mcpServers.c).toEqual({ command: 'cmd', args: [] });
    expect(config.bots.scout).toEqual({ additionalServers: ['c'] });
  });
});
