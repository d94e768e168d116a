/**
 * The database a CLI command works on when no service answers (ADR 036): as `bnity serve`
 * picks it, `BOTERNITY_DATABASE_URL`, else the config file's `database.url`, else the
 * SQLite file of the data directory.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Target } from './resolve-target.js';

/** The database URL of `target`; `configured` is the config's `database.url` when already loaded. */
export async function targetDatabaseUrl(target: Target, configured?: string): Promise<string> {
  const { databaseUrlFor, DATABASE_URL_ENV } = await import('../storage/create-db.js');
  if (configured === undefined && !target.env[DATABASE_URL_ENV]?.trim()) {
    const path = target.configPath();
    if (existsSync(path))
      configured = (await (await import('../config/load-config.js')).loadConfig(path, target.env)).database.url;
  }
  return databaseUrlFor(target.home, target.env, configured);
}

/**
 * The `postgres://` URL of `target` when it runs in cluster mode (ADR 040), else null. A
 * config file that cannot be read or is invalid names no database: null, and the file's
 * own edit or read then says what is wrong with it.
 */
export async function targetClusterUrl(target: Target): Promise<string | null> {
  const [{ ConfigError }, { isPostgresUrl }] = await Promise.all([
    import('../errors.js'),
    import('../storage/pg/postgres-url.js'),
  ]);
  try {
    const url = await targetDatabaseUrl(target);
    return isPostgresUrl(url) ? url : null;
  } catch (error) {
    if (error instanceof ConfigError) return null;
    throw error;
  }
}
