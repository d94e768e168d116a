/**
 * Pure reconciliation helpers for the supervisor (SPEC S3): compare specs and diff desired
 * servers against running ones.
 * @module
 */
import type { ServerSpec } from './types.js';

/** What to change to turn `running` into `desired`; each list sorted by name. */
export type ServerDiff = { add: string[]; remove: string[]; update: string[] };

/**
 * Deep structural equality of plain JSON-like data. Object key order does not matter and a
 * key holding `undefined` counts as absent (as in JSON); array order matters.
 */
export function sameSpec(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameSpec(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const leftKeys = definedKeys(left);
  const rightKeys = definedKeys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => Object.hasOwn(right, key) && sameSpec(left[key], right[key]));
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}

/** Names to add, remove and update (present in both with a different spec). */
export function diffServers(
  desired: Readonly<Record<string, ServerSpec>>,
  running: Readonly<Record<string, ServerSpec>>,
): ServerDiff {
  const add: string[] = [];
  const update: string[] = [];
  for (const [name, spec] of Object.entries(desired)) {
    if (!Object.hasOwn(running, name)) add.push(name);
    else if (!sameSpec(running[name], spec)) update.push(name);
  }
  const remove = Object.keys(running).filter((name) => !Object.hasOwn(desired, name));
  return { add: add.sort(), remove: remove.sort(), update: update.sort() };
}
