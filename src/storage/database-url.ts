/**
 * Which database a process opens (ADR 036), kept apart from `create-db.ts` so the start can
 * tell cluster mode (a PostgreSQL URL) before any database code is loaded.
 * @module
 */
import { join } from 'node:path';
import { isPostgresUrl } from './pg/postgres-url.js';

/** The environment variable naming a PostgreSQL database (ADR 036); it wins over `database.url`. */
export const DATABASE_URL_ENV = 'BOTERNITY_DATABASE_URL';

/**
 * `BOTERNITY_DATABASE_URL`, else `configured` (the config's `database.url`), else the
 * libsql `DATABASE_URL`, else the SQLite file `boternity.db` in the data directory `home`.
 */
export function databaseUrlFor(home: string, env: NodeJS.ProcessEnv = process.env, configured?: string): string {
  for (const url of [env[DATABASE_URL_ENV], configured, env.DATABASE_URL]) if (url?.trim()) return url.trim();
  return `file:${join(home, 'boternity.db')}`;
}

/** Whether the process runs in cluster mode: its database is PostgreSQL (ADR 040). */
export function isClusterDatabase(home: string, env: NodeJS.ProcessEnv, configured?: string): boolean {
  return isPostgresUrl(databaseUrlFor(home, env, configured));
}
