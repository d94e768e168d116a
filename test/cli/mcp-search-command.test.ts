/**
 * `bnity mcp search` and `GET /api/tools/search` (issue 24) against one real service with
 * the reference filesystem and memory servers as child processes: ranked tools of the whole
 * view or a bot's, the view applied first (a denied tool is never found), and each bad
 * input refused in one line.
 */
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) =>
  join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js');

let svc: TestService;
let env: NodeJS.ProcessEnv;
const bnity = (...args: string[]) => runBnity(args, env);

beforeAll(async () => {
  const notes = await mkdtemp(join(tmpdir(), 'notes-'));
  svc = await startTestService({
    bots: { recall: { removedServers: ['files'] } },
    mcpServers: {
      files: { command: process.execPath, args: [bin('server-filesystem'), notes], deniedTools: ['move_file'] },
      memory: {
        command: process.execPath,
        args: [bin('server-memory')],
        env: { MEMORY_FILE_PATH: join(notes, 'm.json') },
      },
    },
  });
  env = { BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_URL: svc.service.url, BOTERNITY_HOME: svc.home };
  await waitFor(
    async () =>
      (await svc.server('files'))?.state === 'connected' && (await svc.server('memory'))?.state === 'connected',
    { what: 'servers connected' },
  );
});
afterAll(() => svc?.stop());

type Found = {
  view: string;
  tools: { name: string; description: string }[];
  searched: number;
  estimatedTokens: number;
};

describe('tool search from the CLI and the API', () => {
  it('prints the ranked tools of the whole view', async () => {
    const result = await bnity('mcp', 'search', 'what files are in my notes folder', '--limit', '3');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^#\s+TOOL\s+DESCRIPTION$/);
    expect(lines).toHaveLength(4);
    expect(result.stdout).toMatch(/^\d\s+files__list_directory\s+Get a detailed listing/m);
  });

  it('--json gives the API answer; --bot searches that bot’s view', async () => {
    const all = await bnity('mcp', 'search', 'remember that Alice works at Acme', '--json');
    const found = JSON.parse(all.stdout) as Found;
    expect(found.view).toBe('all');
    expect(found.searched).toBe(22);
    expect(found.estimatedTokens).toBeGreaterThan(1_000);
    expect(found.tools.slice(0, 3).map((t) => t.name)).toContain('memory__create_entities');
    const bot = JSON.parse(
      (await bnity('mcp', 'search', 'list directory', '--bot', 'recall', '--json')).stdout,
    ) as Found;
    expect(bot.view).toBe('bot:recall');
    expect(bot.searched).toBe(9);
    expect(bot.tools.every((t) => t.name.startsWith('memory__'))).toBe(true);
  });

  it('never finds a denied tool', async () => {
    const { body } = await svc.api<Found>('/api/tools/search?q=regex:move_file|list_directory$');
    expect(body.tools.map((t) => t.name)).toEqual(['files__list_directory']);
  });

  it.each([
    ['/api/tools/search?q=x&limit=0', 400, 'limit'],
    ['/api/tools/search?q=regex:(', 400, 'not a regular expression'],
    ['/api/tools/search?q=x&bot=nobody', 404, 'nobody'],
    ['/api/tools/search', 400, 'q'],
  ])('%s is refused (%i), naming the problem', async (path, status, named) => {
    const { status: got, body } = await svc.api<{ error: { message: string; issues?: { field: string }[] } }>(path);
    expect(got).toBe(status);
    expect(JSON.stringify(body.error)).toContain(named);
    expect(body.error.message).not.toContain('\n');
  });

  it('the CLI shows a refusal in one line and fails', async () => {
    const result = await bnity('mcp', 'search', 'regex:(');
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('not a regular expression');
  });
});
