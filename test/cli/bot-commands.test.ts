/**
 * `bnity bot …` (SPEC A4, B1–B4) as a user runs it: without a service, on the data
 * directory's database and config file (saying so on stderr); with one, through its API,
 * `bot chat` printing the answer as it streams (a tool called through the gateway on the
 * way, shown as a block with its arguments and result: plain when piped, coloured in a
 * terminal or with `--color`, folded unless `--full`) and `--json` its events; every bad
 * input one line on stderr, exit 1 or 2.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { noServiceEnv } from '../support/no-service.js';
import { type OpenAiFixture, startOpenAiFixture } from '../support/openai-fixture.js';
import { runMain } from '../support/run-main.js';
import { BNITY, runBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const require = createRequire(import.meta.url);
const FS_BIN = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);

describe('bnity bot without a service', { timeout: 60_000 }, () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let url: string;
  beforeAll(async () => {
    ({ env, url } = await noServiceEnv());
    home = await mkdtemp(join(tmpdir(), 'bnity-bot-cli-'));
    const config = { mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } }, bots: { old: {} } };
    await writeFile(join(home, 'boternity.json'), JSON.stringify(config, null, 2));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));
  // In this process: what these commands print and change is the subject; the chat tests below
  // run the real binary (exit codes, a terminal, piped stdout).
  const bnity = (...args: string[]) => runMain([...args, '--home', home], env);

  it('creates and edits a bot on the files, saying so', async () => {
    const made = await bnity('bot', 'create', 'scout', '--name', 'Scout', '--category', 'ops');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^bot +scout \(database\)$/m);
    expect(made.stderr).toBe(`bnity: no service at ${url}; worked on the files in ${home}\n`);
    // tiny was a default server that bot "old" saw: adding it to scout's view makes it
    // opt-in, and the command says old no longer sees it.
    const added = await bnity('bot', 'servers', 'add', 'scout', 'tiny');
    expect(added).toMatchObject({ code: 0, stderr: `bnity: no service at ${url}; worked on the files in ${home}\n` });
    expect(added.stdout).toBe(
      [
        'added server "tiny" to bot "scout"',
        'bot "scout" now sees 1: tiny (before 1: tiny)',
        'bot "old" no longer sees: tiny',
        'other bots do not see "tiny": a server a bot adds is only in the views of the bots that add it',
        '',
      ].join('\n'),
    );
    expect((await bnity('bot', 'deny', 'scout', 'tiny', 'echo')).code).toBe(0);
    const config = JSON.parse(await readFile(join(home, 'boternity.json'), 'utf8'));
    expect(config.bots.scout).toEqual({ additionalServers: ['tiny'], toolPermissions: { tiny: { denied: ['echo'] } } });
    const list = await bnity('bot', 'list', '--json');
    expect(JSON.parse(list.stdout).bots.map((b: { slug: string; source: string }) => [b.slug, b.source])).toEqual([
      ['old', 'config'],
      ['scout', 'both'],
    ]);
    expect((await bnity('bot', 'memory', 'add', 'scout', 'likes tea', '--category', 'taste')).code).toBe(0);
    const memories = await bnity('bot', 'memory', 'list', 'scout', '--category', 'taste');
    expect(memories.stdout).toMatch(/taste +\S+ +likes tea/);
    const skill = join(home, 'skill.json');
    await writeFile(skill, JSON.stringify({ name: 'greet', template: 'Hello {{who}}', arguments: [{ name: 'who' }] }));
    expect((await bnity('bot', 'skill', 'add', 'scout', skill)).stdout).toBe('saved skill greet\n');
    expect((await bnity('bot', 'skill', 'render', 'scout', 'greet', '--arg', 'who=you')).stdout).toBe('Hello you\n');
  });

  it('makes a token for a bot of the registry alone, as the API does; none for a bot that is nowhere', async () => {
    expect((await bnity('bot', 'create', 'solo', '--name', 'Solo')).code).toBe(0);
    const made = await bnity('token', 'create', '--name', 'agent', '--bot', 'solo', '--json');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ id: expect.any(String), token: expect.stringMatching(/^bnt_/) });
    const ghost = await bnity('token', 'create', '--name', 'agent', '--bot', 'ghost');
    expect(ghost.code).toBe(1);
    expect(ghost.stderr.trim().split('\n').at(-1)).toMatch(
      /^bnity: bot "ghost" does not exist \(neither in .* nor in the registry\)$/,
    );
    const listed = JSON.parse((await bnity('token', 'list', '--json')).stdout) as
      | { bot: string | null }[]
      | { tokens: { bot: string | null }[] };
    const tokens = Array.isArray(listed) ? listed : listed.tokens;
    expect(tokens.map((t) => t.bot)).toEqual(['solo']);
    expect((await bnity('bot', 'delete', 'solo')).code).toBe(0);
  });

  it('refuses bad input with one line and changes nothing', async () => {
    const before = (await bnity('bot', 'list', '--json')).stdout;
    const flow = join(home, 'flow.json');
    await writeFile(
      flow,
      JSON.stringify({
        name: 'w',
        steps: [{ id: 'a', tool: 'tiny__echo', arguments: { text: '{{steps.ghost.text}}' } }],
      }),
    );
    const cases: [string[], number, RegExp][] = [
      [['bot', 'show', 'ghost'], 1, /^bnity: bot "ghost" does not exist$/],
      [['bot', 'create', 'Bad!', '--name', 'x'], 1, /slug: bot slugs are 1 to 63 lowercase letters/],
      [
        ['bot', 'create', 'x', '--name', 'x', '--provider-url', 'ftp://h/v1', '--model', 'm'],
        1,
        /provider\.baseUrl: must be an http:\/\/ or https:\/\/ URL/,
      ],
      [['bot', 'create', 'x', '--name', 'x', '--model', 'm'], 2, /needs both --provider-url and --model/],
      [['bot', 'create', 'x'], 2, /needs --name/],
      [['bot', 'workflow', 'add', 'scout', flow], 1, /refers to step "ghost", which does not exist/],
      [['bot', 'servers', 'add', 'scout', 'nowhere'], 1, /server "nowhere" is not configured/],
      [['bot', 'workflow', 'run', 'scout', 'w'], 1, /needs the running service/],
      [['bot', 'chat', 'scout', 'hi'], 1, /chatting with bot "scout" needs the running service/],
      [['bot', 'frobnicate'], 2, /unknown command "bot frobnicate"/],
    ];
    for (const [args, code, message] of cases) {
      const run = await bnity(...args);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr.trim().split('\n').at(-1), args.join(' ')).toMatch(message);
    }
    expect((await bnity('bot', 'list', '--json')).stdout).toBe(before);
  });
});

/** Any ANSI escape sequence. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what it looks for
const ANSI = /\u001b\[/;

/**
 * Run `bnity <args>` in a pseudo-terminal (util-linux `script`), as a user at a terminal
 * does: stdout and stderr are one terminal, so the output is both, with CRLF line ends.
 */
function runInTerminal(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, BNITY, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', NO_COLOR: undefined, TERM: 'xterm', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, output: output.replaceAll('\r\n', '\n') })),
  );
}

describe('bnity bot chat with the service', { timeout: 60_000 }, () => {
  let svc: TestService;
  let fixture: OpenAiFixture;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    fixture = await startOpenAiFixture();
    dir = await mkdtemp(join(tmpdir(), 'bnity-bot-chat-'));
    await writeFile(join(dir, 'notes.txt'), 'hello');
    svc = await startTestService({ mcpServers: { fs: { command: process.execPath, args: [FS_BIN, dir] } } });
    await waitFor(async () => (await svc.server('fs'))?.state === 'connected', { what: 'fs connected' });
    env = { BOTERNITY_URL: svc.service.url, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN };
    await runBnity(['bot', 'create', 'reader', '--name', 'R', '--provider-url', fixture.baseUrl, '--model', 'm'], env);
  });
  afterAll(async () => {
    await svc?.stop();
    await fixture?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the answer as it streams, after a block with the arguments and the result of the tool it called', async () => {
    fixture.reply(
      { toolCalls: [{ name: 'fs__list_directory', arguments: { path: dir } }] },
      { text: 'You have notes.txt.' },
    );
    const run = await runBnity(['bot', 'chat', 'reader', `list ${dir}`], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('You have notes.txt.');
    const args = JSON.stringify({ path: dir }, null, 2);
    expect(run.stderr.slice(0, run.stderr.indexOf('\n(session'))).toBe(
      [
        '┌ fs__list_directory',
        `│ arguments · ${Buffer.byteLength(args)} bytes`,
        ...args.split('\n').map((line) => `│   ${line}`),
        '│ result · 16 bytes',
        '│   [FILE] notes.txt',
        '└ answered',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toMatch(/\n\(session [0-9a-f-]{36}; \d+ tokens\)\n$/);
    expect(run.stderr).not.toMatch(ANSI);
    const tool = fixture.requests.at(-1)?.body.messages.find((m) => m.role === 'tool');
    expect(String(tool?.content)).toContain('notes.txt');
  });

  it('colours the blocks in a terminal, not with NO_COLOR or --no-color; --color forces it when piped', async () => {
    const tree = () =>
      fixture.reply({ toolCalls: [{ name: 'fs__directory_tree', arguments: { path: dir } }] }, { text: 'A tree.' });
    // JSON that a tool answered as text, pretty-printed and highlighted: keys, strings.
    const key = '\u001b[36m"name"\u001b[0m:';
    const value = '\u001b[32m"notes.txt"\u001b[0m';

    tree();
    const terminal = await runInTerminal(['bot', 'chat', 'reader', 'tree'], env);
    expect(terminal.code).toBe(0);
    expect(terminal.output).toContain(key);
    expect(terminal.output).toContain(value);
    expect(terminal.output).toContain('\u001b[1mfs__directory_tree\u001b[0m');
    expect(terminal.output).toContain('A tree.');

    tree();
    const noColor = await runInTerminal(['bot', 'chat', 'reader', 'tree'], { ...env, NO_COLOR: '1' });
    expect(noColor.code).toBe(0);
    expect(noColor.output).toContain('│       "name": "notes.txt",');
    expect(noColor.output).not.toMatch(ANSI);

    tree();
    const refused = await runInTerminal(['bot', 'chat', 'reader', 'tree', '--no-color'], env);
    expect(refused.output).toContain('│       "name": "notes.txt",');
    expect(refused.output).not.toMatch(ANSI);

    tree();
    const forced = await runBnity(['bot', 'chat', 'reader', 'tree', '--color'], { ...env, NO_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(key);
    expect(forced.stderr).toContain(value);
    // The answer on stdout stays plain text, for whatever reads it.
    expect(forced.stdout).toBe('A tree.');
  });

  it('folds a long result to 12 lines with its size; --full shows it all', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    await writeFile(join(dir, 'long.txt'), lines.join('\n'));
    const read = () =>
      fixture.reply(
        { toolCalls: [{ name: 'fs__read_text_file', arguments: { path: join(dir, 'long.txt') } }] },
        { text: 'Read.' },
      );
    const bytes = Buffer.byteLength(lines.join('\n'));

    read();
    const folded = await runBnity(['bot', 'chat', 'reader', 'read it'], env);
    expect(folded.code).toBe(0);
    expect(folded.stderr).toContain(`│ result · ${bytes} bytes\n`);
    expect(folded.stderr).toContain('│   line 12\n│   … folded: 12 of 40 lines shown');
    expect(folded.stderr).toContain(`… folded: 12 of 40 lines shown, ${bytes} bytes in all; --full shows all\n`);
    expect(folded.stderr).not.toContain('line 13');

    read();
    const full = await runBnity(['bot', 'chat', 'reader', 'read it', '--full'], env);
    expect(full.code).toBe(0);
    expect(full.stderr).toContain(lines.map((line) => `│   ${line}`).join('\n'));
    expect(full.stderr).not.toContain('folded');
  });

  it('marks a failed tool call "error", in red when coloured', async () => {
    const ghost = () =>
      fixture.reply({ toolCalls: [{ name: 'fs__ghost', arguments: {} }] }, { text: 'That tool is not there.' });
    ghost();
    const plain = await runBnity(['bot', 'chat', 'reader', 'haunt'], env);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(
      /│ result · error · \d+ bytes\n│ {3}Error: tool "fs__ghost" is not available to this bot; it was not called\n└ error\n/,
    );
    ghost();
    const coloured = await runBnity(['bot', 'chat', 'reader', 'haunt', '--color'], env);
    expect(coloured.stderr).toContain('\u001b[31merror\u001b[0m');
    expect(coloured.stderr).toContain('\u001b[31mError: tool "fs__ghost"');
  });

  it('--json prints each event, and --session continues the conversation', async () => {
    fixture.reply({ text: 'first' }, { text: 'second' });
    const first = await runBnity(['bot', 'chat', 'reader', 'one', '--json'], env);
    const events = first.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['text', 'final']);
    const next = await runBnity(['bot', 'chat', 'reader', 'two', '--session', events[1].sessionId], env);
    expect(next.stdout).toBe('second');
    expect(fixture.requests.at(-1)?.body.messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['one', 'first', 'two']),
    );
  });

  it('refuses a message over the size limit, and an unknown session, with one line', async () => {
    const long = await runBnity(['bot', 'chat', 'reader', 'x'.repeat(32_001)], env);
    expect(long.code).toBe(1);
    expect(long.stderr).toBe('bnity: message is 32001 characters, over the limit of 32000; send a shorter one\n');
    const lost = await runBnity(
      ['bot', 'chat', 'reader', 'hi', '--session', '00000000-0000-4000-8000-000000000000'],
      env,
    );
    expect(lost.code).toBe(1);
    expect(lost.stderr).toMatch(/^bnity: bot "reader" has no chat session "00000000-/);
  });
});
