/**
 * The audit hash of a listing (SPEC X7): SHA-256 of the canonical JSON of an array of many
 * items, the same hash `auditHash` gives, without writing the whole listing out again.
 * Each item's canonical text is kept, weakly, by item, and a listing seen before keeps its
 * hash: a `tools/list` is rebuilt per request from cached items (the view's tools, a few
 * bot tools), so nearly every item is found, and only the digest runs over the bytes.
 * @module
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../guard/canonical-json.js';

/** Create a hasher; its caches live as long as the items do. */
export function createListHasher(): (list: readonly unknown[]) => string {
  const lists = new WeakMap<object, string>();
  const items = new WeakMap<object, string>();
  const textOf = (item: unknown): string => {
    if (item === null || typeof item !== 'object') return canonicalJson(item) ?? 'null';
    let text = items.get(item);
    if (text === undefined) {
      // Inside an array, nothing is left out: what JSON cannot write stands as null.
      text = canonicalJson(item) ?? 'null';
      items.set(item, text);
    }
    return text;
  };
  return (list) => {
    const known = lists.get(list);
    if (known !== undefined) return known;
    const hash = createHash('sha256');
    hash.update('[');
    for (let i = 0; i < list.length; i++) {
      if (i > 0) hash.update(',');
      hash.update(textOf(list[i]), 'utf8');
    }
    hash.update(']');
    const digest = hash.digest('hex');
    lists.set(list, digest);
    return digest;
  };
}
