/**
 * Keys other MCP clients write in a server entry (SPEC C1), turned into ours: Cline's
 * `disabled` (→ `enabled`) and `timeout` in seconds (→ `requestTimeoutMs`), VS Code's
 * `envFile` (→ `env`, the entry's own `env` winning). Cline's `autoApprove`/`alwaysAllow`
 * and VS Code's `dev`/`gallery`/`version` are kept in the file and not used.
 * @module
 */
import type { PathIssue } from './config-issues.js';
import { isJsonObject } from './json-object.js';
import { readEnvFile } from './read-env-file.js';
import { describeValue } from './zod-messages.js';

/** Keys of other clients that a server entry may carry without a warning. */
export const FOREIGN_SERVER_KEYS: readonly string[] = Object.freeze([
  'disabled',
  'timeout',
  'envFile',
  'autoApprove',
  'alwaysAllow',
  'dev',
  'gallery',
  'version',
]);

/** The entry with other clients' keys translated, and issues about them. */
export function adoptForeignKeys(
  entry: Record<string, unknown>,
  configDir: string,
): { entry: Record<string, unknown>; issues: PathIssue[] } {
  const issues: PathIssue[] = [];
  const out: Record<string, unknown> = { ...entry };
  const { disabled, timeout, envFile } = entry;
  if (disabled !== undefined) {
    if (typeof disabled !== 'boolean') {
      issues.push({
        path: ['disabled'],
        message: `expected a boolean (true or false), got ${describeValue(disabled)}`,
      });
    } else if (entry.enabled === undefined) {
      out.enabled = !disabled;
    } else if (entry.enabled === disabled) {
      issues.push({ path: ['disabled'], message: 'contradicts "enabled": keep one of them' });
    }
  }
  if (timeout !== undefined) {
    if (typeof timeout !== 'number' || !(timeout > 0)) {
      issues.push({ path: ['timeout'], message: `expected a number of seconds > 0, got ${describeValue(timeout)}` });
    } else if (entry.requestTimeoutMs === undefined) {
      out.requestTimeoutMs = Math.round(timeout * 1000);
    }
  }
  if (envFile !== undefined) {
    if (typeof envFile !== 'string' || envFile === '') {
      issues.push({ path: ['envFile'], message: `expected a file path, got ${describeValue(envFile)}` });
    } else {
      try {
        const fromFile = readEnvFile(envFile, configDir);
        out.env = isJsonObject(entry.env) ? { ...fromFile, ...entry.env } : (entry.env ?? fromFile);
      } catch (error) {
        issues.push({ path: ['envFile'], message: (error as Error).message });
      }
    }
  }
  return { entry: out, issues };
}
