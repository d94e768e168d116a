/**
 * A config edit in cluster mode (ADR 040): read the latest version, make the new text from
 * it, validate it whole as a file would be, and write it as the next version with a
 * compare-and-set on the number. An edit made on a given version (`baseVersion`, the API's
 * `If-Match`) that is no longer the latest is refused with a 409; one made on whatever is
 * latest is made again on the newer text when another writer came first (a few times), so
 * no edit is lost either way.
 * @module
 */
import type { Sql } from 'postgres';
import { parseConfigTextDetailed } from '../config/load-config.js';
import type { ParsedConfig } from '../config/parse-config.js';
import { refuseReload } from '../config/refuse-reload.js';
import type { AppConfig } from '../config/schema.js';
import { ConfigError, HubError } from '../errors.js';
import { insertConfigVersion, latestConfigVersion } from './config-version-repo.js';

/** How messages name the config held in the database. */
export const DATABASE_CONFIG = 'the database config';

/** Options of {@link writeConfigVersion}. */
export type WriteConfigVersionOptions = {
  sql: Sql;
  /** For `${env:VAR}` while validating. */
  env: NodeJS.ProcessEnv;
  /** The new text made from the latest one; runs again on a newer one when another writer came first. */
  change(base: string): string;
  /** Who writes: kept with the version. */
  writtenBy: string;
  /** The version the edit was made on: another one latest is a `conflict`. */
  baseVersion?: number | undefined;
  /** The config in force (a service's): a text naming no servers may not stop its running ones. */
  inForce?: AppConfig | undefined;
  /** How many times the edit is made again when another writer came first (default 5). */
  attempts?: number;
  /** Runs once the edit is made and valid, before it is written (again if it is made again). */
  beforeWrite?(): Promise<void> | void;
  /** What a refusal names (default: the database config; an import: its file). */
  label?: string;
};

/** A written (or unchanged) version: the parsed config, its text and number. */
export type WrittenConfig = ParsedConfig & {
  readonly text: string;
  readonly version: number;
  readonly changed: boolean;
};

const EMPTY = '{}\n';
const ATTEMPTS = 5;

/** Write the next version; throws ConfigError (invalid, nothing written) or HubError `conflict`. */
export async function writeConfigVersion(options: WriteConfigVersionOptions): Promise<WrittenConfig> {
  const { sql, env, baseVersion, attempts = ATTEMPTS, label = DATABASE_CONFIG } = options;
  for (let attempt = 1; ; attempt++) {
    const latest = await latestConfigVersion(sql);
    const current = latest?.version ?? 0;
    if (baseVersion !== undefined && baseVersion !== current) throw staleVersion(baseVersion, current);
    const base = latest?.document ?? EMPTY;
    const text = options.change(base);
    const parsed = parseConfigTextDetailed(text, label, env);
    const refusal = refuseReload(parsed, options.inForce ?? inForceOf(base, env), label);
    if (refusal !== null) throw refusal;
    if (latest !== null && text === base) return { ...parsed, text, version: current, changed: false };
    await options.beforeWrite?.();
    const version = current + 1;
    if (await insertConfigVersion(sql, { version, document: text, writtenBy: options.writtenBy }))
      return { ...parsed, text, version, changed: true };
    if (baseVersion !== undefined) throw staleVersion(baseVersion, version);
    if (attempt >= attempts)
      throw new HubError(
        'conflict',
        `${DATABASE_CONFIG} kept changing while it was being edited (${attempts} tries): nothing was written; try again`,
      );
  }
}

/** The refusal of an edit made on `base` while `current` is the latest. */
function staleVersion(base: number, current: number): HubError {
  return new HubError(
    'conflict',
    `config version ${base} is not the latest (${current} is): another edit came first; nothing was written; read the config again and retry`,
  );
}

/** The latest text parsed, for the no-servers rule when no service gives its config; null when it does not parse here. */
function inForceOf(base: string, env: NodeJS.ProcessEnv): AppConfig | null {
  try {
    return parseConfigTextDetailed(base, DATABASE_CONFIG, env).config;
  } catch (error) {
    if (error instanceof ConfigError) return null;
    throw error;
  }
}
