/**
 * The names of the atomic writer's temp files (SPEC C4): `.<file>.<pid>.<12 hex>.tmp` beside
 * the file written, so that a temp file left by a killed writer is recognisably ours (and
 * whose), and nothing else is ever taken for one.
 * @module
 */
import { basename } from 'node:path';

/** The temp file name for a write of `path` by process `pid`; `nonce` is 12 lowercase hex digits. */
export function tempFileName(path: string, pid: number, nonce: string): string {
  return `.${basename(path)}.${pid}.${nonce}.tmp`;
}

/** The pid of the writer of a temp file of `path` named `name`, or null when `name` is not one. */
export function tempFileWriter(path: string, name: string): number | null {
  const prefix = `.${basename(path)}.`;
  if (!name.startsWith(prefix)) return null;
  const match = /^([1-9][0-9]{0,9})\.[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
  return match ? Number(match[1]) : null;
}
