import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Client, createClient } from '@libsql/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDb, databaseUrlFor, type OpenDb } from '../../src/storage/create-db.js';
import { botsTable } from '../../src/storage/schema.js';
import { useTempDirs } from '../support/temp-dir.js';

const c5Tables = [
  'api_tokens',
  'bot_memories',
  'bots',
  'mcp_audit',
  'mcp_connections',
  'sampling_usage',
  'tool_pins',
  'upstream_processes',
];

describe('createDb', () => {
  const tempDir = useTempDirs();
  const opened: OpenDb[] = [];
  const open = async (url: string, busyTimeoutMs?: number) => {
    const store = await createDb({ url, ...(busyTimeoutMs !== undefined && { busyTimeoutMs }) });
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  const tableNames = async (store: OpenDb) => {
    const result = await store.client.execute("select name from sqlite_master where type = 'table' order by name");
    return result.rows.map((row) => String(row.name));
  };

  it('applies the migrations to an in-memory database: every C5 table exists', async () => {
    const store = await open(':memory:');
    expect(await tableNames(store)).toEqual(expect.arrayContaining(c5Tables));
  });

  it('creates the indexes the audit queries need', async () => {
    const store = await open(':memory:');
    const result = await store.client.execute(
      "select name from sqlite_master where type = 'index' and tbl_name = 'mcp_audit'",
    );
    expect(result.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'idx_mcp_audit_server',
        'idx_mcp_audit_bot',
        'idx_mcp_audit_timestamp',
        'idx_mcp_audit_direction',
      ]),
    );
  });

  it('opens the same file twice: migrations are idempotent and data survives', async () => {
    const url = `file:${join(await tempDir(), 'boternity.db')}`;
    const first = await open(url);
    await first.db.insert(botsTable).values({ slug: 'scout', name: 'Scout' });
    await first.close();

    const second = await open(url);
    expect(await tableNames(second)).toEqual(expect.arrayContaining(c5Tables));
    // Each migration in drizzle/ is recorded once, however often the file is opened.
    const migrations = await second.client.execute('select count(*) as n from __drizzle_migrations');
    const shipped = readdirSync(new URL('../../drizzle', import.meta.url)).filter((f) => f.endsWith('.sql')).length;
    expect(Number(migrations.rows[0]?.n)).toBe(shipped);
    expect(await second.db.select({ slug: botsTable.slug }).from(botsTable)).toEqual([{ slug: 'scout' }]);
  });

  it('creates a missing parent directory for a file database and turns on WAL', async () => {
    const dir = join(await tempDir(), 'nested', 'deeper');
    const store = await open(`file:${join(dir, 'boternity.db')}`);
    expect(existsSync(join(dir, 'boternity.db'))).toBe(true);
    const mode = await store.client.execute('PRAGMA journal_mode');
    expect(mode.rows[0]?.journal_mode).toBe('wal');
  });

  it('keeps one connection to a file however many calls come in one turn (ADR 015 §9)', async () => {
    const store = await open(`file:${join(await tempDir(), 'one.db')}`);
    // A connection's own setting: a second connection would answer SQLite's default (-2000).
    await store.client.execute('PRAGMA cache_size = 123');
    const sizes = await Promise.all(
      Array.from({ length: 30 }, () => store.client.execute('PRAGMA cache_size').then((r) => r.rows[0]?.cache_size)),
    );
    expect(new Set(sizes)).toEqual(new Set([123]));
    // The queued calls still all run, reads and writes mixed.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.db.insert(botsTable).values({ slug: `b${i}`, name: `B${i}` })),
    );
    expect(await store.db.$count(botsTable)).toBe(30);
  });

  it('accepts a file:// URL', async () => {
    const path = join(await tempDir(), 'sub', 'x.db');
    await open(`file://${path}`);
    expect(existsSync(path)).toBe(true);
  });

  it('finds the migrations relative to its module, not the working directory', async () => {
    const cwd = process.cwd();
    const elsewhere = await tempDir();
    process.chdir(elsewhere);
    try {
      const store = await open(`file:${join(elsewhere, 'a.db')}`);
      expect(await tableNames(store)).toEqual(expect.arrayContaining(c5Tables));
    } finally {
      process.chdir(cwd);
    }
  });

  it('rejects, and leaves nothing open, when the migrations folder does not exist', async () => {
    await expect(createDb({ url: ':memory:', migrationsFolder: '/nonexistent/drizzle' })).rejects.toThrow();
  });

  const autoVacuum = async (client: Client) => Number((await client.execute('pragma auto_vacuum')).rows[0]?.[0]);

  it('makes a new database file incremental-vacuum, so deleted rows can give their space back', async () => {
    const store = await open(`file:${join(await tempDir(), 'new.db')}`);
    expect(await autoVacuum(store.client)).toBe(2);
  });

  it('converts a database file made without auto_vacuum, keeping its rows, when asked (the service)', async () => {
    const url = `file:${join(await tempDir(), 'old.db')}`;
    // As an older boternity made it: tables first, auto_vacuum never set.
    const old = createClient({ url });
    await old.execute('create table kept (x)');
    await old.execute("insert into kept values ('row')");
    expect(await autoVacuum(old)).toBe(0);
    old.close();

    const log = { info: vi.fn() };
    const cli = await createDb({ url });
    expect(await autoVacuum(cli.client)).toBe(0);
    await cli.close();
    const service = await createDb({ url, convertAutoVacuum: true, log });
    opened.push(service);
    expect(await autoVacuum(service.client)).toBe(2);
    expect((await service.client.execute('select x from kept')).rows.map((r) => r.x)).toEqual(['row']);
    expect(log.info).toHaveBeenLastCalledWith(
      expect.objectContaining({ ms: expect.any(Number) }),
      'database: incremental vacuum on',
    );
  });

  it('replaces the audit writer connection on demand, and closes the one in use', async () => {
    const store = await open(`file:${join(await tempDir(), 'w.db')}`);
    const next = await store.reopenWriter();
    expect(next).not.toBe(store.writer);
    expect(store.writer.closed).toBe(true);
    await next.execute('select 1');
  });
});

describe('databaseUrlFor', () => {
  it('defaults to boternity.db in the home directory', () => {
    expect(databaseUrlFor('/data/home', {})).toBe('file:/data/home/boternity.db');
  });

  it('prefers DATABASE_URL', () => {
    expect(databaseUrlFor('/data/home', { DATABASE_URL: 'libsql://db.example.com' })).toBe('libsql://db.example.com');
  });
});
