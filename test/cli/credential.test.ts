import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKeystore } from '../../src/storage/keystore.js';
import { runMain } from '../support/run-main.js';
import { runBnity } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-credential-');
const SECRET = 'ghp_cli-secret-0987654321';
const ENV = { BOTERNITY_KEYSTORE_KEY: '', BOTERNITY_HOME: '' };

/**
 * `bnity <args>` with `input` on stdin and the test's keystore key: the real binary, reading its
 * own stdin. What needs no stdin runs in this process (`runMain`).
 */
const runWithStdin = (args: string[], input: string, env: NodeJS.ProcessEnv = {}) =>
  runBnity(args, { ...ENV, ...env }, undefined, input);

describe('bnity mcp credential', { timeout: 60_000 }, () => {
  it('set (stdin), list, list --json and remove edit the keystore of --home', async () => {
    const home = await tempDir();
    const set = await runWithStdin(['mcp', 'credential', 'set', 'github', '--home', home], `${SECRET}\n`);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('saved credential "github"');
    expect(set.stdout + set.stderr).not.toContain(SECRET);
    expect(await (await openKeystore({ home, env: {} })).get('github')).toBe(SECRET);
    expect((await stat(join(home, 'keystore.enc'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'keystore.key'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(home, 'keystore.enc'), 'utf8')).not.toContain(SECRET);

    await runWithStdin(['mcp', 'credential', 'set', 'slack', '--home', home], 'xoxb-2');
    const list = await runMain(['mcp', 'credential', 'list', '--home', home], ENV);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('github\nslack\n');
    const json = await runMain(['mcp', 'credential', 'list', '--json', '--home', home], ENV);
    expect(JSON.parse(json.stdout)).toEqual({ credentials: ['github', 'slack'] });
    expect(json.stdout).not.toContain(SECRET);

    const removed = await runMain(['mcp', 'credential', 'remove', 'github', '--home', home], ENV);
    expect(removed.code).toBe(0);
    const again = await runMain(['mcp', 'credential', 'remove', 'github', '--home', home], ENV);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('credential "github" is not in the keystore');
    expect(JSON.parse((await runMain(['mcp', 'credential', 'list', '--json', '--home', home], ENV)).stdout)).toEqual({
      credentials: ['slack'],
    });
  });

  it('uses BOTERNITY_KEYSTORE_KEY, and a wrong key is a clear error (exit 1)', async () => {
    const home = await tempDir();
    const key = 'ab'.repeat(32);
    expect(
      (await runWithStdin(['mcp', 'credential', 'set', 'x', '--home', home], SECRET, { BOTERNITY_KEYSTORE_KEY: key }))
        .code,
    ).toBe(0);
    await expect(stat(join(home, 'keystore.key'))).rejects.toMatchObject({ code: 'ENOENT' });
    const wrong = await runWithStdin(['mcp', 'credential', 'set', 'y', '--home', home], 'other', {
      BOTERNITY_KEYSTORE_KEY: 'cd'.repeat(32),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('keystore: cannot decrypt "x": wrong key (BOTERNITY_KEYSTORE_KEY or');
    const bad = await runMain(['mcp', 'credential', 'list', '--home', home], { BOTERNITY_KEYSTORE_KEY: 'nope' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('BOTERNITY_KEYSTORE_KEY must be 64 hex characters');
  });

  it('usage errors exit 2: empty secret, missing or bad name, extra arguments, unknown flags', async () => {
    const home = await tempDir();
    const empty = await runWithStdin(['mcp', 'credential', 'set', 'x', '--home', home], '\n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('refusing an empty secret');
    await expect(stat(join(home, 'keystore.enc'))).rejects.toMatchObject({ code: 'ENOENT' });
    const cases = [
      ['set'],
      ['set', 'a b'],
      ['set', 'x', 'secret-in-argv'],
      ['remove'],
      ['list', '--bogus'],
      ['frobnicate'],
    ];
    const results = await Promise.all(
      cases.map((args) => runMain(['mcp', 'credential', ...args, '--home', home], ENV)),
    );
    results.forEach((r, i) => {
      expect(r.code, cases[i]?.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^bnity: /);
    });
  });
});
