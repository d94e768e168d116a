/**
 * Databases for the storage tests on both dialects (ADR 036): `describe.each(DIALECTS)` and
 * `openTestDb(dialect)`. SQLite is a database in memory; PostgreSQL a fresh database copied
 * from the migrated template of the run's server (`postgres-global.ts`), dropped on close.
 * @module
 */
import { readFileSync } from 'node:fs';
import postgres, { type Sql } from 'postgres';
import { expect, inject } from 'vitest';
import { type CreateDbOptions, createDb, type OpenDb } from '../../src/storage/create-db.js';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** How many migrations `drizzle/pg/` holds: what a migrated database records as applied. */
export const PG_MIGRATIONS: number = JSON.parse(
  readFileSync(new URL('../../drizzle/pg/meta/_journal.json', import.meta.url), 'utf8'),
).entries.length;

let admin: Sql | null = null;
let made = 0;

/** A connection to the server's `postgres` database, for creating and dropping test databases. */
export function adminSql(): Sql {
  admin ??= postgres(`${inject('postgres').server}/postgres`, { max: 1, idle_timeout: 1, onnotice: () => {} });
  return admin;
}

/**
 * A new empty PostgreSQL database: migrated (a copy of the template) unless `empty`. `recreate`
 * makes a dropped one again under its name, migrated (a test that dropped it mid-run, before
 * what still writes to it stops).
 */
export async function createPostgresDatabase({
  empty = false,
} = {}): Promise<{ url: string; drop(): Promise<void>; recreate(): Promise<void> }> {
  const { server, template } = inject('postgres');
  made += 1;
  const name = `t_${process.pid}_${made}`;
  const sql = adminSql();
  await sql.unsafe(`create database "${name}"${empty ? '' : ` template "${template}"`}`);
  return {
    url: `${server}/${name}`,
    drop: async () => {
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
    },
    recreate: async () => {
      await sql.unsafe(`create database "${name}" template "${template}"`);
    },
  };
}

/** A URL of a fresh database of `dialect` (SQLite: in memory) and what removes it. */
export async function testDatabaseUrl(dialect: Dialect): Promise<{ url: string; drop(): Promise<void> }> {
  return dialect === 'sqlite' ? { url: ':memory:', drop: async () => {} } : createPostgresDatabase();
}

/** Open a fresh database of `dialect`; its `close()` also drops a PostgreSQL one. */
export async function openTestDb(dialect: Dialect, options: Omit<CreateDbOptions, 'url'> = {}): Promise<OpenDb> {
  const { url, drop } = await testDatabaseUrl(dialect);
  const store = await createDb({ ...options, url });
  const close = store.close;
  return {
    ...store,
    close: async () => {
      await close();
      await drop();
    },
  };
}

/**
 * The `code` of a refused write of `dialect`: SQLite's `SQLITE_CONSTRAINT`, PostgreSQL's
 * class 23 (integrity constraint violation: unique, foreign key, check).
 */
export function constraintCode(dialect: Dialect): unknown {
  return dialect === 'sqlite' ? 'SQLITE_CONSTRAINT' : expect.stringMatching(/^23\d{3}$/);
}

/**
 * `count` connections to one fresh migrated PostgreSQL database, as `count` replicas have
 * (ADR 041); `close()` closes them and drops the database.
 */
export async function openSharedPostgres(count: number): Promise<{ stores: OpenDb[]; close(): Promise<void> }> {
  const database = await createPostgresDatabase();
  const stores: OpenDb[] = [];
  for (let i = 0; i < count; i++) stores.push(await createDb({ url: database.url }));
  return {
    stores,
    close: async () => {
      for (const store of stores) await store.close();
      await database.drop();
    },
  };
}
