/**
 * `bnity config export [FILE]` / `bnity config import FILE` (issue 22 part 2, ADR 040): in
 * cluster mode on the database's versions (a running replica, a real process, applies an
 * import at once), in single-user mode on the config file; a bad file is refused in one line
 * and changes nothing. The first command of each test runs the real binary (its exit code and
 * stdout); the rest run in this process (`main`).
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { serverNames, startReplica, tinyEntry } from '../support/cluster-replicas.js';
import { noServiceEnv } from '../support/no-service.js';
import { runMain } from '../support/run-main.js';
import { runBnity } from '../support/serve-process.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bnity-config-cmd-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Files an import must refuse, and what the one line says. */
const BAD_FILES: { name: string; text: string | null; says: RegExp }[] = [
  { name: 'missing.json', text: null, says: /missing\.json: cannot read config: file not found$/ },
  { name: 'not-json.json', text: '{ "mcpServers": ', says: /not-json\.json: / },
  {
    name: 'bad-server.json',
    text: JSON.stringify({ mcpServers: { broken: { args: ['x'] } } }),
    says: /bad-server\.json: .*broken/,
  },
  {
    name: 'no-servers.json',
    text: JSON.stringify({ limits: {} }),
    says: /no-servers\.json: names no servers \(no "mcpServers" key\) and would stop all \d+ running/,
  },
];

/** Write the bad files into `dir`; their paths. */
async function writeBadFiles(dir: string) {
  return Promise.all(
    BAD_FILES.map(async ({ name, text, says }) => {
      const path = join(dir, name);
      if (text !== null) await writeFile(path, text);
      return { path, says };
    }),
  );
}

describe('bnity config export and import in cluster mode', () => {
  it('exports the latest version, imports a file as the next one that a replica applies, refuses a bad file', async () => {
    const database = await createPostgresDatabase({ empty: true });
    cleanup.push(database.drop);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => sql.end());
    const dir = await tempDir();
    const { env: quiet } = await noServiceEnv();
    const env = {
      ...quiet,
      BOTERNITY_HOME: dir,
      BOTERNITY_DATABASE_URL: database.url,
      BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    };

    const none = await runBnity(['config', 'export'], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^bnity: database postgres:\/\/postgres@127\.0\.0\.1:\d+\/\S+ holds no config yet: /);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);

    const replica = await startReplica('a', database.url, { one: tinyEntry('one') }, cleanup);
    const seeded = await readFile(replica.config, 'utf8');
    const toStdout = await runMain(['config', 'export'], env);
    expect(toStdout).toMatchObject({ code: 0, stdout: seeded });
    const exported = join(dir, 'exported.json');
    const toFile = await runMain(['config', 'export', exported], env);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stdout).toMatch(/^exported config version 1 of database .* to .*exported\.json\n$/);
    expect(await readFile(exported, 'utf8')).toBe(seeded);
    expect((await stat(exported)).mode & 0o777).toBe(0o600);

    const edited = `${JSON.stringify({ mcpServers: { one: tinyEntry('one'), imported: tinyEntry('imp') } }, null, 2)}\n`;
    await writeFile(exported, edited);
    const imported = await runMain(['config', 'import', exported], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/as config version 2; every replica applies it\n$/);
    await waitFor(async () => (await serverNames(replica)).includes('imported'), {
      what: 'the replica applies the import',
      timeoutMs: 1_000,
    });
    const again = await runMain(['config', 'import', exported, '--json'], env);
    expect(JSON.parse(again.stdout)).toEqual({ imported: exported, version: 2 });
    const roundTrip = await runMain(['config', 'export'], env);
    expect(roundTrip.stdout).toBe(edited);

    for (const { path, says } of await writeBadFiles(dir)) {
      const refused = await runMain(['config', 'import', path], env);
      expect(refused.code, path).toBe(1);
      const lines = refused.stderr.trim().split('\n');
      expect(lines, refused.stderr).toHaveLength(1);
      expect(lines[0]?.trim()).toMatch(says);
    }
    const rows = await sql`select version from config_versions order by version`;
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
    expect(await serverNames(replica)).toEqual(['imported', 'one']);

    // With no service at its URL, `bnity mcp remove` edits the database's config too: the replica applies it.
    const removed = await runMain(['mcp', 'remove', 'imported'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toMatch(
      /^bnity: no service at .*; removed "imported" from config version 3 of database .* \(every replica applies it\)\n$/,
    );
    await waitFor(async () => !(await serverNames(replica)).includes('imported'), {
      what: 'the replica applies the removal',
      timeoutMs: 1_000,
    });

    // A bot's view (`mcp add --bot`) and `mcp import` without a service: versions of the database's config as well.
    const bot = await runMain(['bot', 'create', 'scout', '--name', 'Scout'], env);
    expect(bot.code, bot.stderr).toBe(0);
    const viewed = await runMain(['mcp', 'add', 'c', '--bot', 'scout', '--', 'cmd'], env);
    expect(viewed.code, viewed.stderr).toBe(0);
    expect(viewed.stdout).toContain('bot "scout" now sees');
    const claude = join(dir, 'claude.json');
    await writeFile(claude, JSON.stringify({ mcpServers: { fromclaude: tinyEntry('claude') } }));
    const fromClaude = await runMain(['mcp', 'import', '--from', claude], env);
    expect(fromClaude.code, fromClaude.stderr).toBe(0);
    expect(fromClaude.stderr).toMatch(/imported into config version 6 of the database \(every replica applies it\)\n$/);
    await waitFor(async () => (await serverNames(replica)).join() === 'c,fromclaude,one', {
      what: 'the replica applies the view edit and the import',
    });
    const [latest] = await sql`select document from config_versions order by version desc limit 1`;
    expect(JSON.parse(String(latest?.document)).bots).toEqual({ scout: { additionalServers: ['c'] } });
  });
});

describe('bnity config export and import with a config file (single user)', () => {
  it('exports the file, imports a file as a checked edit of it, refuses a bad file and leaves it as it was', async () => {
    const dir = await tempDir();
    const config = join(dir, 'boternity.json');
    const original = `// mine\n${JSON.stringify({ mcpServers: { one: tinyEntry('one') } }, null, 2)}\n`;
    await writeFile(config, original);
    const { env: quiet } = await noServiceEnv();
    const env = { ...quiet, BOTERNITY_HOME: dir, BOTERNITY_DATABASE_URL: '' };
    const flags = ['--config', config];

    const exported = await runBnity(['config', 'export', ...flags], env);
    expect(exported).toMatchObject({ code: 0, stdout: original });

    const next = join(dir, 'next.json');
    const text = `${JSON.stringify({ mcpServers: { two: tinyEntry('two') } }, null, 2)}\n`;
    await writeFile(next, text);
    const imported = await runMain(['config', 'import', next, ...flags], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^imported .*next\.json into .*boternity\.json; /);
    expect(await readFile(config, 'utf8')).toBe(text);

    for (const { path, says } of await writeBadFiles(dir)) {
      const refused = await runMain(['config', 'import', path, ...flags], env);
      expect(refused.code, path).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr.trim()).toMatch(says);
    }
    expect(await readFile(config, 'utf8')).toBe(text);
  });
});
