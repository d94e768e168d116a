/** Canonical JSON for audit hashes: the old recursive text, without recursion. */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/storage/canonical-json.js';

/** What the audit hashed before (JSON.stringify with a key-sorting replacer): the reference. */
const reference = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

describe('canonicalJson', () => {
  it('writes exactly what the recursive version wrote, so hashes stay as they were', () => {
    const samples: unknown[] = [
      1,
      'x',
      null,
      true,
      [],
      {},
      -0,
      1e21,
      Number.NaN,
      [1, undefined, () => 1, Symbol('s'), 'a'],
      { b: 1, a: [1, { d: undefined, c: Number.POSITIVE_INFINITY }], 10: 'x', 2: 'y', '01': 3, z: new Date(0) },
      { nested: { '\u2028': '\ud800', é: 'ü', 'a"b': '\n' } },
      { a: { toJSON: () => ({ y: 1, x: 2 }) } },
      { 4294967295: 1, 4294967294: 2, 3: 3 },
      [[[{ deep: [{}] }]]],
      // Long texts, written between quotes when plain (issue 20) and escaped when not.
      { content: [{ type: 'text', text: 'x'.repeat(65_536) }] },
      { text: `${'x'.repeat(8_192)}"\\\n\u0001é\ud800` },
    ];
    for (const sample of samples) expect(canonicalJson(sample)).toBe(reference(sample));
    expect(canonicalJson(undefined)).toBeUndefined();
  });

  it('writes values nested far deeper than the stack allows', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(() => reference(deep)).toThrow(RangeError);
    const text = canonicalJson(deep) as string;
    expect(text.length).toBeGreaterThan(600_000);
    expect(text.endsWith(']}]}')).toBe(true);
    expect(text).toContain('"bottom"');
  });

  it('refuses a cycle and a BigInt, as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = { again: cycle };
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    // The same object twice, not nested in itself, is no cycle.
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });
});
