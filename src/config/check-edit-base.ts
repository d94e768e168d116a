/**
 * What an edit may build on (SPEC C2, C4): only a file the service itself would accept. A file
 * that is not JSON, does not validate, or (while the service runs servers) declares none is
 * the operator's edit in progress or a mistake: building on it would either carry it into
 * force behind the operator's back or, by starting from the last good config instead, throw
 * it away. The edit is refused (`config_file_invalid`, HTTP 409) saying where the file is
 * wrong and what to do; nothing is written.
 * @module
 */
import { ConfigError } from '../errors.js';
import { formatConfigIssue } from './config-issues.js';
import { type ParsedConfig, parseConfigDetailed } from './parse-config.js';
import { jsonPathLocator, parseConfigJson } from './parse-config-json.js';
import { refuseReload } from './refuse-reload.js';
import type { AppConfig } from './schema.js';

/** Options of {@link checkEditBase}. */
export type EditBaseOptions = {
  readonly env: NodeJS.ProcessEnv;
  /** The config the service has in force; absent when no service runs (the CLI on its own). */
  readonly inForce?: AppConfig | undefined;
};

/**
 * Validate the text an edit starts from (`null`: there is no file). Resolves with it parsed;
 * throws a `config_file_invalid` ConfigError naming the file and where it is wrong.
 */
export function checkEditBase(text: string | null, path: string, options: EditBaseOptions): ParsedConfig | null {
  try {
    if (text === null) {
      // The service started from this file: gone now, it is a file the hot reload refused.
      if (options.inForce === undefined) return null;
      const why = 'file not found';
      throw new ConfigError(`${path}: cannot read config: ${why}`, path, [{ server: null, field: '', message: why }], {
        code: 'config_unreadable',
      });
    }
    const parsed = parseConfigDetailed(parseConfigJson(text, path), path, options.env, jsonPathLocator(text));
    const refusal = options.inForce === undefined ? null : refuseReload(parsed, options.inForce, path);
    if (refusal !== null) throw refusal;
    return parsed;
  } catch (error) {
    if (error instanceof ConfigError) throw fileOnDiskError(error, path);
    throw error;
  }
}

/** `error` about the file on disk as the one-line refusal of an edit. */
function fileOnDiskError(error: ConfigError, path: string): ConfigError {
  const own = `${path}: `;
  const detail =
    error.code === 'config_invalid' && error.issues.some((issue) => issue.line !== undefined)
      ? `invalid config: ${error.issues.map(formatConfigIssue).join('; ')}`
      : (error.message.startsWith(own) ? error.message.slice(own.length) : error.message)
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .join('; ');
  return new ConfigError(
    `${path}: the file on disk is invalid, so it was not edited: ${detail}; fix the file or revert it, then try again (nothing was written)`,
    path,
    error.issues,
    { cause: error, code: 'config_file_invalid' },
  );
}
