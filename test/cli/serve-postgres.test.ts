/**
 * `bnity serve` on PostgreSQL (issue 22 part 1, ADR 036) as a real process: it migrates an
 * empty database, answers a tool call through /mcp, writes the audit row to PostgreSQL and
 * finds it again after a restart; it listens only once ready (not while the migrations wait); a database
 * it cannot use stops it in one line with exit code 1.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK } from '../../src/storage/pg/open-postgres.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { noServiceEnv } from '../support/no-service.js';
import { runBnity, type ServeProcess, spawnBnity, spawnServe } from '../support/serve-process.js';
import { createPostgresDatabase, PG_MIGRATIONS } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'pg-test-token';
const KEY = 'ab'.repeat(32);
const auth = { authorization: `Bearer ${TOKEN}` };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A home with a config of one stdio server (`tiny`), and an empty PostgreSQL database. */
async function setUp() {
  const home = await mkdtemp(join(tmpdir(), 'bnity-pg-'));
  cleanup.push(() => rm(home, { recursive: true, force: true }));
  const config = join(home, 'boternity.json');
  await writeFile(config, JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }));
  const database = await createPostgresDatabase({ empty: true });
  cleanup.push(database.drop);
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  cleanup.push(() => sql.end());
  const env = {
    BOTERNITY_HOME: home,
    BOTERNITY_ADMIN_TOKEN: TOKEN,
    BOTERNITY_DATABASE_URL: database.url,
    BOTERNITY_KEYSTORE_KEY: KEY,
  };
  return { home, config, url: database.url, sql, env };
}

const stop = async (serve: ServeProcess) => {
  serve.child.kill('SIGTERM');
  return (await serve.exited).code;
};

describe('bnity serve on PostgreSQL', () => {
  it('migrates an empty database, audits a tool call there, and keeps it over a restart', async () => {
    const { home, config, sql, env } = await setUp();
    const first = await spawnServe(['--port', '0', '--config', config], env);
    try {
      const agent = await connectHttpClient(`${first.url}/mcp`, {}, TOKEN);
      await waitFor(async () => (await agent.listTools()).tools.find((t) => t.name === 'tiny__echo'), {
        what: 'tiny__echo listed',
        timeoutMs: 20_000,
      });
      const result = await agent.callTool({ name: 'tiny__echo', arguments: { text: 'on pg' } });
      expect(result.content).toEqual([{ type: 'text', text: 'on pg' }]);
      await agent.close();
      const rows = await waitFor(
        async () => {
          const found = await sql`select server_name, tool_name, success from mcp_audit where event_type = 'tool_call'`;
          return found.length > 0 ? found : null;
        },
        { what: 'the audit row in PostgreSQL' },
      );
      expect(rows).toEqual([{ server_name: 'tiny', tool_name: 'echo', success: 1 }]);
    } finally {
      expect(await stop(first)).toBe(0);
    }
    // No SQLite file was made beside the config.
    expect((await readdir(home)).filter((f) => f.endsWith('.db'))).toEqual([]);
    const second = await spawnServe(['--port', '0', '--config', config], env);
    try {
      const res = await fetch(`${second.url}/api/audit?event=tool_call`, { headers: auth });
      const body = (await res.json()) as { entries: { serverName: string; toolName: string }[] };
      expect(body.entries).toEqual([expect.objectContaining({ serverName: 'tiny', toolName: 'echo' })]);
      const [applied] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      // Each migration of drizzle/pg/ applied once, by the first start.
      expect(applied?.n).toBe(PG_MIGRATIONS);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  });

  it('is not ready while the migrations wait for the lock (connections refused, so a balancer passes them on), ready once they are done', async () => {
    const { config, url, env } = await setUp();
    const holder = postgres(url, { max: 1, onnotice: () => {} });
    cleanup.push(() => holder.end());
    await holder`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const port = await freePort();
    const serve = spawnBnity(['serve', '--port', String(port), '--config', config], env);
    cleanup.push(async () => {
      serve.child.kill('SIGTERM');
      await serve.exit;
    });
    const readyz = async () =>
      (await fetch(`http://127.0.0.1:${port}/readyz`, { headers: auth }).catch(() => null))?.status ?? null;
    await waitFor(
      async () => {
        const [row] =
          await holder`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${MIGRATION_LOCK} and not granted`;
        return row?.n === 1;
      },
      { what: 'the start waiting for the migration lock' },
    );
    // A starting replica on PostgreSQL listens only once it serves (ADR 039): nothing answers yet.
    expect(await readyz()).toBeNull();
    await holder`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    await waitFor(async () => (await readyz()) === 200, { what: 'ready after the migrations', timeoutMs: 20_000 });
  });

  it('stops in one line, exit code 1, on a database it cannot use, and writes nothing', async () => {
    const { home, config, url, sql, env } = await setUp();
    const port = await freePort();
    const cases = [
      {
        database: 'postgres://',
        says: /^bnity: the database URL .*: give postgres:\/\/USER:PASSWORD@HOST:5432\/DATABASE$/,
      },
      {
        database: `postgres://u:pw@127.0.0.1:${port}/x`,
        says: /^bnity: database postgres:\/\/u@127\.0\.0\.1:\d+\/x: nothing answers there/,
      },
      {
        database: url.replace(/:([^:@/]+)@/, ':not-the-password@'),
        says: /^bnity: database .*: the server refused the user or password/,
      },
    ];
    for (const { database, says } of cases) {
      const run = await runBnity(['serve', '--port', '0', '--config', config], {
        ...env,
        BOTERNITY_DATABASE_URL: database,
      });
      expect(run.code, run.stderr).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(says);
      expect(run.stderr).not.toContain('not-the-password');
    }
    const [tables] = await sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
    expect(tables?.n).toBe(0);
    expect((await readdir(home)).filter((f) => f.endsWith('.db'))).toEqual([]);
  });

  it('takes database.url from the config file, and BOTERNITY_DATABASE_URL over it', async () => {
    const { config, url, sql, env } = await setUp();
    await writeFile(
      config,
      JSON.stringify({ database: { url }, mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
    );
    const { BOTERNITY_DATABASE_URL: _, ...withoutEnv } = env;
    const serve = await spawnServe(['--port', '0', '--config', config], { ...withoutEnv, BOTERNITY_DATABASE_URL: '' });
    expect(await stop(serve)).toBe(0);
    const [tables] = await sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
    expect(tables?.n).toBeGreaterThan(0);
    const port = await freePort();
    const run = await runBnity(['serve', '--port', '0', '--config', config], {
      ...env,
      BOTERNITY_DATABASE_URL: `postgres://u:pw@127.0.0.1:${port}/x`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`127.0.0.1:${port}/x: nothing answers there`);
  });

  it('bnity token create with no service writes to the database of database.url', async () => {
    const { home, config, url, sql } = await setUp();
    await writeFile(config, JSON.stringify({ database: { url }, mcpServers: {} }));
    const { env } = await noServiceEnv();
    const run = await runBnity(['token', 'create', '--name', 'ci', '--home', home, '--config', config], {
      ...env,
      BOTERNITY_DATABASE_URL: '',
    });
    expect(run.code, run.stderr).toBe(0);
    const rows = await sql`select name from api_tokens`;
    expect(rows).toEqual([{ name: 'ci' }]);
    expect((await readdir(home)).filter((f) => f.endsWith('.db'))).toEqual([]);
  });
});
