import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseError } from '../../../src/errors.js';
import { createDb, type OpenDb } from '../../../src/storage/create-db.js';
import { MIGRATION_LOCK } from '../../../src/storage/pg/open-postgres.js';
import { apiTokensTable } from '../../../src/storage/schema.js';
import { freePort } from '../../support/free-port.js';
import { createPostgresDatabase, PG_MIGRATIONS } from '../../support/test-db.js';

describe('createDb on PostgreSQL', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const emptyDatabase = async () => {
    const database = await createPostgresDatabase({ empty: true });
    cleanup.push(database.drop);
    return database.url;
  };
  const open = async (url: string) => {
    const store = await createDb({ url });
    cleanup.push(() => store.close());
    return store;
  };
  const connect = (url: string) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    cleanup.push(() => sql.end());
    return sql;
  };

  it('three starts at once on an empty database migrate it once', async () => {
    const url = await emptyDatabase();
    const stores = await Promise.all([open(url), open(url), open(url)]);
    const sql = connect(url);
    const applied = await sql`select hash from drizzle.__drizzle_migrations`;
    // Each migration once, not three times.
    expect(applied).toHaveLength(PG_MIGRATIONS);
    // Every start got a working database.
    for (const [i, store] of stores.entries())
      await store.db.insert(apiTokensTable).values({ name: `t${i}`, tokenHash: `h${i}`, prefix: 'p' });
    expect(await stores[0]?.db.select().from(apiTokensTable)).toHaveLength(3);
  });

  it('waits for the migration lock another process holds, then finds nothing left to do', async () => {
    const url = await emptyDatabase();
    await open(url);
    const holder = connect(url);
    await holder`select pg_advisory_lock(${MIGRATION_LOCK})`;
    let opened: OpenDb | null = null;
    const opening = open(url).then((store) => {
      opened = store;
    });
    // The start is queued behind the lock (seen in pg_locks), not done.
    const watcher = connect(url);
    for (;;) {
      const [row] =
        await watcher`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${MIGRATION_LOCK} and not granted`;
      if (row?.n === 1) break;
    }
    expect(opened).toBeNull();
    await holder`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    await opening;
    expect(opened).not.toBeNull();
  });

  it('reads back instants, booleans and JSON as SQLite does', async () => {
    const store = await open((await createPostgresDatabase()).url);
    const at = new Date('2026-11-27T08:00:00.123Z');
    await store.db.insert(apiTokensTable).values({ name: 'a', tokenHash: 'h', prefix: 'p', lastUsedAt: at });
    const [row] = await store.db.select().from(apiTokensTable);
    expect(row?.lastUsedAt).toEqual(at);
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(Math.abs((row?.createdAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  describe('refuses a database it cannot use, in one line, before anything is written', () => {
    it('a malformed URL', async () => {
      for (const url of ['postgres://', 'postgres://host-only:5432', 'postgres://a:b@[::1/x']) {
        const error = await createDb({ url }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DatabaseError);
        expect((error as Error).message).not.toContain('\n');
        expect((error as Error).message).toMatch(/database URL/);
      }
    });

    it('nothing answering at the address', async () => {
      const port = await freePort();
      const error = await createDb({ url: `postgres://u:secret@127.0.0.1:${port}/x` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseError);
      expect((error as Error).message).toBe(
        `database postgres://u@127.0.0.1:${port}/x: nothing answers there (connection refused); is PostgreSQL running, on that port?`,
      );
    });

    it('a wrong password, never shown', async () => {
      const url = await emptyDatabase();
      const wrong = url.replace(/:([^:@/]+)@/, ':wrong-password@');
      const error = await createDb({ url: wrong }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseError);
      expect((error as Error).message).toMatch(/refused the user or password/);
      expect((error as Error).message).not.toContain('wrong-password');
      // Nothing was written: the database has no tables.
      const [row] = await connect(
        url,
      )`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
      expect(row?.n).toBe(0);
    });

    it('a database that does not exist', async () => {
      const url = `${(await emptyDatabase()).replace(/\/[^/]+$/, '')}/no_such_db`;
      const error = await createDb({ url }).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/database "no_such_db" does not exist; create it/);
    });
  });

  it('runs the libsql interface over the pool: ? placeholders, rows by index and name', async () => {
    const store = await open((await createPostgresDatabase()).url);
    await store.client.execute({
      sql: "insert into api_tokens (id, name, token_hash, prefix) values (?, ?, ?, '?')",
      args: ['i', 'n', 'h'],
    });
    const result = await store.client.execute({ sql: 'select name, prefix from api_tokens where id = ?', args: ['i'] });
    expect(result.rows[0]?.name).toBe('n');
    expect(result.rows[0]?.[1]).toBe('?');
  });
});
