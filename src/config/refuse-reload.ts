/**
 * The rule that a config file may not stop every running server by accident (SPEC C2, C3):
 * a file that declares no servers at all (no `mcpServers` or `servers` key, or no file)
 * may be a typo or a half-written edit, never "remove them all". The hot reload refuses
 * such a file, and an API edit refuses to build on one.
 * @module
 */
import { ConfigError } from '../errors.js';
import type { ParsedConfig } from './parse-config.js';
import type { AppConfig } from './schema.js';

/** The refusal of `parsed` while `inForce` runs servers, or null when it may be applied. */
export function refuseReload(parsed: ParsedConfig, inForce: AppConfig | null, path: string): ConfigError | null {
  const running = Object.keys(inForce?.mcpServers ?? {}).length;
  if (parsed.declaresServers || running === 0) return null;
  const reason = `names no servers (no "mcpServers" key) and would stop all ${running} running; write "mcpServers": {} to remove them all on purpose`;
  return new ConfigError(`${path}: ${reason}`, path, [{ server: null, field: 'mcpServers', message: reason }]);
}
