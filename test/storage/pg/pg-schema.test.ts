import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type OpenDb } from '../../../src/storage/create-db.js';
import { createPostgresDatabase } from '../../support/test-db.js';

/**
 * The PostgreSQL migrations (`drizzle/pg/`) give the tables all SQLite migrations give
 * together: the same tables, columns, nullability, indexes, in the encodings the shared
 * queries read and write (ADR 036).
 */
describe('the PostgreSQL schema against the SQLite one', () => {
  let sqlite: OpenDb;
  let pg: postgres.Sql;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    sqlite = await createDb({ url: ':memory:' });
    const database = await createPostgresDatabase();
    drop = database.drop;
    pg = postgres(database.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sqlite.close();
    await pg.end();
    await drop();
  });

  /** SQLite's storage classes and the PostgreSQL types that hold the same values. */
  const SAME = { integer: ['integer', 'bigint'], text: ['text'], real: ['double precision'] } as Record<
    string,
    string[]
  >;

  const sqliteTables = async () =>
    (
      await sqlite.client.execute(
        "select name from sqlite_master where type = 'table' and name not like '\\_%' escape '\\' and name not like 'sqlite%' order by name",
      )
    ).rows.map((r) => String(r.name));

  /**
   * A fleet's tables: a single replica on SQLite keeps its limits in memory (ADR 042), and
   * resumes its GET streams from memory (ADR 039 §5).
   */
  const PG_ONLY = ['cluster_checks', 'fleet_sessions', 'rate_limits', 'stream_events'];

  it('has the same tables, besides the fleet tables of PostgreSQL alone', async () => {
    const pgTables = (
      await pg`select table_name from information_schema.tables where table_schema = 'public' order by table_name`
    ).map((r) => r.table_name);
    expect(pgTables.filter((t) => !PG_ONLY.includes(t))).toEqual(await sqliteTables());
    expect(pgTables).toEqual(expect.arrayContaining(PG_ONLY));
  });

  it('makes stream_events unlogged: the GET streams’ events skip the WAL', async () => {
    const [table] = await pg`select relpersistence from pg_class where relname = 'stream_events'`;
    expect(table?.relpersistence).toBe('u');
  });

  it("makes rate_limits unlogged, with the columns in the order rate-limiter-flexible's INSERT gives them", async () => {
    const [table] = await pg`select relpersistence from pg_class where relname = 'rate_limits'`;
    expect(table?.relpersistence).toBe('u');
    const columns = await pg`select column_name, data_type from information_schema.columns
      where table_schema = 'public' and table_name = 'rate_limits' order by ordinal_position`;
    expect(columns.map((c) => `${c.column_name} ${c.data_type}`)).toEqual([
      'key character varying',
      'points integer',
      'expire bigint',
    ]);
  });

  it('has the same columns, types and nullability in each', async () => {
    for (const table of await sqliteTables()) {
      const lite = (await sqlite.client.execute(`pragma table_info(${table})`)).rows.map((r) => ({
        name: String(r.name),
        type: String(r.type).toLowerCase(),
        // SQLite's INTEGER PRIMARY KEY is never null, whatever notnull says.
        notNull: Number(r.notnull) === 1 || Number(r.pk) > 0,
      }));
      const pgColumns = await pg`select column_name, data_type, is_nullable from information_schema.columns
        where table_schema = 'public' and table_name = ${table} order by ordinal_position`;
      expect(pgColumns.map((c) => c.column_name).sort(), table).toEqual(lite.map((c) => c.name).sort());
      for (const column of lite) {
        const other = pgColumns.find((c) => c.column_name === column.name);
        expect(SAME[column.type], `${table}.${column.name}`).toContain(other?.data_type);
        expect(other?.is_nullable === 'NO', `${table}.${column.name} not null`).toBe(column.notNull);
      }
    }
  });

  it('has the same indexes', async () => {
    const lite = (
      await sqlite.client.execute(
        "select name from sqlite_master where type = 'index' and name like 'idx\\_%' escape '\\' order by name",
      )
    ).rows.map((r) => String(r.name));
    const pgIndexes = (
      await pg`select indexname from pg_indexes where schemaname = 'public' and indexname like 'idx\\_%'
        and tablename not in ${pg(PG_ONLY)} order by indexname`
    ).map((r) => r.indexname);
    expect(pgIndexes).toEqual(lite);
  });
});
