/**
 * The version a replica reports in the fleet view: its package's (a rolling upgrade shows
 * which replicas run which).
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** `version` of boternity's package.json, or `unknown` when it cannot be read. */
export function replicaVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
