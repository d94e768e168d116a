/**
 * Read, parse and validate the config file: the one place config enters the process (STYLE
 * 2.4). Every failure is a `ConfigError` whose message starts with the file's path.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { parseConfig } from './parse-config.js';
import { parseConfigJson } from './parse-config-json.js';
import type { AppConfig } from './schema.js';

const READ_FAILURES: Readonly<Record<string, string>> = Object.freeze({
  ENOENT: 'file not found',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent of it is not a directory',
});

/** The file's text; throws a `ConfigError` with code `config_unreadable` naming the path. */
export async function readConfigText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const why = READ_FAILURES[code] ?? (error as Error).message;
    throw new ConfigError(`${file}: cannot read config: ${why}`, file, [{ server: null, field: '', message: why }], {
      cause: error,
      code: 'config_unreadable',
    });
  }
}

/** Validate config text as if read from `file` (for editors and API writes that check before saving). */
export function parseConfigText(text: string, file: string | null, env: NodeJS.ProcessEnv = process.env): AppConfig {
  return parseConfig(parseConfigJson(text, file), file, env);
}

/** Read and validate a config file; throws a `ConfigError` naming the file, and each server and field. */
export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<AppConfig> {
  return parseConfigText(await readConfigText(file), file, env);
}
