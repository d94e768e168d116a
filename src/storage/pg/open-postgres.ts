/**
 * Opens a PostgreSQL database (ADR 036): checks the URL, connects, applies the migrations of
 * `drizzle/pg/` under an advisory lock (replicas starting together migrate once: the others
 * wait for the lock, then find nothing to do), and returns the same `OpenDb` a SQLite file
 * gives. The drizzle database runs the repositories' queries, built on the SQLite tables;
 * int8 is read as a JS number so instants (BIGINT epoch ms) read back as they were written.
 * @module
 */
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres, { type Options, type Sql } from 'postgres';
import { DatabaseError } from '../../errors.js';
import type { Db, OpenDb } from '../create-db.js';
import { markPostgres } from '../db-dialect.js';
import { pgClient } from './pg-client.js';
import { describeConnectError, parsePostgresUrl } from './postgres-url.js';

/** Connections in the pool: see ADR 036 for the measurement behind it. */
export const POOL_SIZE = 4;
/** The advisory lock the migrations run under (`pg_advisory_lock`): "bnty" in ASCII. */
export const MIGRATION_LOCK = 0x626e7479;
const CONNECT_TIMEOUT_S = 10;
const OLDEST_SERVER = 130000;

/** Options of {@link openPostgres}. */
export type OpenPostgresOptions = { url: string; migrationsFolder: string; poolSize?: number };

/** Open the PostgreSQL database `url` and bring its schema up to date. */
export async function openPostgres({
  url,
  migrationsFolder,
  poolSize = POOL_SIZE,
}: OpenPostgresOptions): Promise<OpenDb> {
  const target = parsePostgresUrl(url);
  const options: Options<Record<string, postgres.PostgresType>> = {
    connect_timeout: CONNECT_TIMEOUT_S,
    onnotice: () => {},
    connection: { application_name: 'boternity' },
    // int8 (instants, counts) as numbers: epoch ms stay far below 2^53.
    types: { int8: { to: 20, from: [20], serialize: (value: number) => String(value), parse: Number } },
  };
  await migrateLocked(postgres(url, { ...options, max: 1 }), target.display, migrationsFolder);
  const sql = postgres(url, { ...options, max: poolSize });
  const pg = drizzle(sql);
  const client = pgClient(sql);
  const db = Object.assign(pg, {
    // Raw statements (the audit writer's) go through the libsql interface on either database.
    $client: client,
    // drizzle's SQLite `batch` (one transaction, no interactive callback): the queries' SQL in one.
    batch: (queries: { getSQL(): Parameters<typeof pg.execute>[0] }[]) =>
      pg.transaction(async (tx) => {
        const out: unknown[] = [];
        for (const query of queries) out.push(await tx.execute(query.getSQL()));
        return out;
      }),
  }) as unknown as Db;
  markPostgres(db);
  return {
    db,
    client,
    writer: client,
    reopenWriter: async () => client,
    file: null,
    postgres: sql,
    // A pooled connection is recycled after 30–60 min (postgres.js), which would end a session lock.
    openSession: () => postgres(url, { ...options, max: 1, max_lifetime: 0 }),
    close: () => sql.end({ timeout: 5 }),
  };
}

/**
 * Apply pending migrations on one connection holding the advisory lock. The lock is a
 * session lock: a process killed while migrating loses its connection and so the lock, and
 * the migration's own transaction is rolled back.
 */
async function migrateLocked(sql: Sql, display: string, migrationsFolder: string): Promise<void> {
  try {
    let version: number;
    try {
      const [row] = await sql`select current_setting('server_version_num')::int as version`;
      version = Number(row?.version);
    } catch (error) {
      throw new DatabaseError(describeConnectError(error, display), { cause: error });
    }
    if (version < OLDEST_SERVER)
      throw new DatabaseError(`database ${display}: PostgreSQL ${version} is too old; boternity needs 13 or later`);
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder });
    } catch (error) {
      throw new DatabaseError(`database ${display}: migration failed: ${(error as Error).message}`, { cause: error });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => undefined);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
