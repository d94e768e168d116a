/**
 * Strict keys (SPEC C1): a key that is a near miss of a known one is an error naming the key
 * meant (`enabeld: unknown key; did you mean "enabled"?`); keys other MCP clients write are
 * accepted silently; any other key is kept in the file and reported as a warning.
 * @module
 */
import type { JsonPath, PathIssue } from './config-issues.js';

/** Errors (near misses) and warnings (other unknown keys) of one object's keys. */
export type KeyCheck = { readonly issues: PathIssue[]; readonly warnings: PathIssue[] };

/**
 * Check `object`'s keys against `known` (ours) and `foreign` (other clients' keys, accepted
 * as they are); `at` is the object's path. Keys starting with `$` (`$schema`) are never reported.
 */
export function checkKeys(
  object: Readonly<Record<string, unknown>>,
  known: readonly string[],
  foreign: readonly string[],
  at: JsonPath,
): KeyCheck {
  const issues: PathIssue[] = [];
  const warnings: PathIssue[] = [];
  for (const key of Object.keys(object)) {
    if (known.includes(key) || foreign.includes(key) || key.startsWith('$')) continue;
    const meant = nearMiss(key, [...known, ...foreign]);
    if (meant !== null) issues.push({ path: [...at, key], message: `unknown key; did you mean "${meant}"?` });
    else warnings.push({ path: [...at, key], message: 'unknown key, kept but not used' });
  }
  return { issues, warnings };
}

/** The known key `key` is most likely a typo of, or null when none is close. */
export function nearMiss(key: string, known: readonly string[]): string | null {
  const lower = key.toLowerCase();
  // Short keys tolerate one slip, longer ones two (a swap counts as one).
  const allowed = key.length <= 4 ? 1 : 2;
  let best: { key: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && (best === null || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key ?? null;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(value);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}
