/** Listings hashed item by item give the audit hash of the whole listing. */
import { describe, expect, it } from 'vitest';
import { auditHash } from '../../src/storage/audit-writer.js';
import { createListHasher } from '../../src/storage/list-hasher.js';

describe('createListHasher', () => {
  it('gives what auditHash gives for the whole array, item keys in any order', () => {
    const hash = createListHasher();
    const list = [{ b: 1, a: 'x' }, 2, 'three', null, undefined, [{ d: 1, c: 2 }], () => 1];
    expect(hash(list)).toBe(auditHash(list));
    expect(hash([])).toBe(auditHash([]));
    // A rebuilt listing of the same items, and one whose item changed, each hashed as they are.
    expect(hash([...list])).toBe(auditHash(list));
    expect(hash([{ b: 1, a: 'y' }, ...list.slice(1)])).toBe(auditHash([{ b: 1, a: 'y' }, ...list.slice(1)]));
  });
});
