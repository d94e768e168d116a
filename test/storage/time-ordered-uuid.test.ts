/** Audit row ids: UUIDv7, time first. */
import { describe, expect, it } from 'vitest';
import { createTimeOrderedUuid } from '../../src/storage/time-ordered-uuid.js';

describe('createTimeOrderedUuid', () => {
  it('makes UUIDv7s whose text sorts by time', () => {
    const timeOrderedUuid = createTimeOrderedUuid();
    const ids = [1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000].map((at) => timeOrderedUuid(at));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1_000 }, () => timeOrderedUuid(1)))).toHaveProperty('size', 1_000);
  });
});
