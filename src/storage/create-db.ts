/**
 * Opens the database (SPEC C5) and brings its schema up to date: a SQLite file in the data
 * directory by default, the libSQL server `DATABASE_URL` names, or the PostgreSQL database
 * of `BOTERNITY_DATABASE_URL` / `database.url` (ADR 036, loaded only then).
 * @module
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client, Config } from '@libsql/client';
import { createClient as createLocalClient } from '@libsql/client/sqlite3';
import type { LibSQLDatabase } from 'drizzle-orm/libsql/driver-core';
import { migrate } from 'drizzle-orm/libsql/migrator';
// This entry wraps any libsql client without loading the remote ones.
import { drizzle } from 'drizzle-orm/libsql/sqlite3';
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import { packageRoot } from '../package-root.js';
import { isPostgresUrl } from './pg/postgres-url.js';
import * as schema from './schema.js';
import { withBusyRetry } from './with-busy-retry.js';

export { DATABASE_URL_ENV, databaseUrlFor } from './database-url.js';

/** The drizzle database every repository takes (`$client` is the libsql client under it). */
export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

/** Options of {@link createDb}. */
export type CreateDbOptions = {
  /** A libsql URL (`file:…`, `:memory:`, `libsql://…`, `http(s)://…`) or `postgres://…`. */
  url: string;
  /** Defaults to the repo's `drizzle/` folder, wherever the process was started from. */
  migrationsFolder?: string;
  /** How long a local connection waits for another writer's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Rewrite a database file made before incremental vacuum (a one-time `VACUUM`, 6–18 s a
   * GB here): the service does, so its file can shrink; a CLI command opening it does not.
   */
  convertAutoVacuum?: boolean;
  /** Where the conversion is announced. */
  log?: Pick<Logger, 'info'>;
};

/**
 * An open database: `close()` releases the clients. `writer` is a connection of its own for
 * the audit's appends (for a local file; the main client otherwise); `reopenWriter()`
 * closes it and opens another in its place (see {@link openWriter}). `file` is the path of
 * a local database file, null otherwise. On PostgreSQL, `client` and `writer` are the libsql
 * interface over the pool and `postgres` the pool itself (what LISTEN/NOTIFY will use); null
 * on SQLite.
 */
export type OpenDb = {
  db: Db;
  client: Client;
  writer: Client;
  reopenWriter(): Promise<Client>;
  file: string | null;
  postgres: Sql | null;
  /**
   * PostgreSQL: a new client of one connection of its own (same options, never recycled), for
   * a session that must last: the run-once jobs' advisory lock (ADR 041). Null on SQLite.
   */
  openSession: (() => Sql) | null;
  close(): Promise<void>;
};

/** The WAL file is cut back to this after a checkpoint (SQLite keeps its largest size otherwise). */
const WAL_SIZE_LIMIT = 32 * 1024 * 1024;
const INCREMENTAL = 2;

// Resolved from the package, not the cwd: `npm start` may run from anywhere, from dist/ or src/.
const defaultMigrationsFolder = join(packageRoot(), 'drizzle');

/**
 * Open the database at `url` and apply pending migrations. For a local file, creates its
 * parent directory and turns on WAL so readers do not block the writer. A new local
 * database gets `auto_vacuum = INCREMENTAL` (a property fixed when its first table is
 * made), so the audit's deletions can give space back (issue 17).
 */
export async function createDb({
  url,
  migrationsFolder = defaultMigrationsFolder,
  busyTimeoutMs = 5_000,
  convertAutoVacuum = false,
  log,
}: CreateDbOptions): Promise<OpenDb> {
  if (isPostgresUrl(url)) {
    const { openPostgres } = await import('./pg/open-postgres.js');
    return openPostgres({ url, migrationsFolder: join(migrationsFolder, 'pg') });
  }
  const file = localFilePath(url);
  // createClient throws synchronously (SQLITE_CANTOPEN) when the directory is missing.
  if (file) mkdirSync(dirname(file), { recursive: true });
  // `timeout` is the busy timeout of every pooled connection; a `PRAGMA busy_timeout`
  // through `execute` would reach only one of them.
  const client = await openClient({ url, timeout: busyTimeoutMs });
  try {
    if (file || url === ':memory:') await incrementalVacuum(client, file && convertAutoVacuum ? file : null, log);
    // WAL is a property of the file, so setting it once covers every connection.
    if (file) {
      await withBusyRetry(() => client.execute('PRAGMA journal_mode = WAL'));
      await client.execute(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
    }
    const db = drizzle(client, { schema });
    await withBusyRetry(() => migrate(db, { migrationsFolder }));
    const writer = file ? await openWriter(url, busyTimeoutMs) : client;
    let current = writer;
    return {
      db,
      client,
      writer,
      reopenWriter: async () => {
        if (current === client) return client;
        current.close();
        current = await openWriter(url, busyTimeoutMs);
        return current;
      },
      file,
      postgres: null,
      openSession: null,
      close: async () => {
        if (current !== client) current.close();
        client.close();
      },
    };
  } catch (error) {
    client.close();
    throw error;
  }
}

/**
 * One connection for appends that may lose their last commits on a power cut, never on a
 * crash of the process: WAL with `synchronous = NORMAL` commits without an fsync (the WAL
 * is synced at checkpoints), which keeps a flush of audit rows from stalling the event
 * loop (ADR 006). One connection, so the pragma holds for every statement on it. After a
 * failed statement it is replaced: libsql does not reset a statement that failed with
 * SQLITE_BUSY, which keeps the connection's implicit transaction open, so nothing it writes
 * afterwards would be committed until that statement is garbage-collected.
 */
async function openWriter(url: string, busyTimeoutMs: number): Promise<Client> {
  const writer = createLocalClient({ url, timeout: busyTimeoutMs, concurrency: 1 });
  try {
    await writer.execute('PRAGMA synchronous = NORMAL');
    await writer.execute(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
    return writer;
  } catch (error) {
    writer.close();
    throw error;
  }
}

/**
 * Make the database incremental-vacuum: a new one by the pragma alone; an older one, when
 * `convert` names its file, by a `VACUUM` that rewrites it (once: the mode is kept in it).
 */
async function incrementalVacuum(client: Client, convert: string | null, log?: Pick<Logger, 'info'>): Promise<void> {
  const read = async (pragma: string) => Number((await client.execute(`PRAGMA ${pragma}`)).rows[0]?.[0] ?? 0);
  if ((await read('auto_vacuum')) === INCREMENTAL) return;
  const fresh = (await read('page_count')) === 0;
  if (!fresh && !convert) return;
  await client.execute('PRAGMA auto_vacuum = INCREMENTAL');
  if (fresh || !convert) return;
  const bytes = statSync(convert).size;
  log?.info(
    { file: convert, bytes },
    'database: turning on incremental vacuum (a one-time VACUUM of the whole file: seconds a GB)',
  );
  const started = performance.now();
  await withBusyRetry(() => client.execute('VACUUM'));
  // The rewrite went through the WAL: write it back and give its space up.
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  log?.info(
    { file: convert, ms: Math.round(performance.now() - started), bytes: statSync(convert).size },
    'database: incremental vacuum on',
  );
}

/**
 * A client for `url`. A local database needs only the SQLite client: the remote ones (and
 * the WebSocket library they bring) are loaded for a remote URL alone.
 */
async function openClient(config: Config): Promise<Client> {
  // Every local statement runs synchronously in native code, so a second connection buys no
  // parallelism; the client's default pool (20) opens one per call made in the same turn
  // (50 upstreams connecting: 19) and keeps each idle with its page cache and parsed schema,
  // about 0.2 MB apiece (ADR 015 §9). With one, calls queue. An interactive `transaction()`
  // would hold it and make other calls fail at once: use `batch`.
  if (config.url.startsWith('file:') || config.url === ':memory:')
    return createLocalClient({ ...config, concurrency: 1 });
  const { createClient } = await import('@libsql/client');
  return createClient(config);
}

/** The filesystem path of a local `file:` URL; null for memory and remote databases. */
function localFilePath(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const withoutQuery = url.split('?', 1)[0] ?? '';
  if (withoutQuery.startsWith('file://')) return fileURLToPath(withoutQuery);
  const path = withoutQuery.slice('file:'.length);
  return path === '' || path === ':memory:' ? null : path;
}
