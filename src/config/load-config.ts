/**
 * Read, parse and validate the config file: the one place config enters the process (STYLE
 * 2.4). Every failure is a `ConfigError` whose message starts with the file's path.
 * @module
 */
import { ConfigError } from '../errors.js';
import { type ParsedConfig, parseConfigDetailed } from './parse-config.js';
import { parseConfigJson } from './parse-config-json.js';
import { readRegularFile } from './read-regular-file.js';
import type { AppConfig } from './schema.js';

const READ_FAILURES: Readonly<Record<string, string>> = Object.freeze({
  ENOENT: 'file not found',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent of it is not a directory',
  ENXIO: 'it is a socket, not a regular file',
});

/** The file's text; throws a `ConfigError` with code `config_unreadable` naming the path (also for a FIFO or device). */
export async function readConfigText(file: string): Promise<string> {
  try {
    return await readRegularFile(file);
  } catch (error) {
    throw unreadableConfigError(file, error);
  }
}

/** The `config_unreadable` error for a failed read of `file` (`error` as `fs` threw it). */
export function unreadableConfigError(file: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why = READ_FAILURES[code] ?? (error as Error).message;
  return new ConfigError(`${file}: cannot read config: ${why}`, file, [{ server: null, field: '', message: why }], {
    cause: error,
    code: 'config_unreadable',
  });
}

/** Validate config text as if read from `file` (for editors and API writes that check before saving). */
export function parseConfigText(text: string, file: string | null, env: NodeJS.ProcessEnv = process.env): AppConfig {
  return parseConfigTextDetailed(text, file, env).config;
}

/** Like {@link parseConfigText}, with warnings (unknown keys kept) and whether servers are declared. */
export function parseConfigTextDetailed(
  text: string,
  file: string | null,
  env: NodeJS.ProcessEnv = process.env,
): ParsedConfig {
  return parseConfigDetailed(parseConfigJson(text, file), file, env);
}

/** Read and validate a config file; throws a `ConfigError` naming the file, and each server and field. */
export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<AppConfig> {
  return (await loadConfigDetailed(file, env)).config;
}

/** Like {@link loadConfig}, with warnings, whether servers are declared, and the text read. */
export async function loadConfigDetailed(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ParsedConfig & { readonly text: string }> {
  const text = await readConfigText(file);
  return { ...parseConfigTextDetailed(text, file, env), text };
}
