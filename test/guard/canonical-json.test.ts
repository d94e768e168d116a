/** Canonical JSON for audit hashes: the old recursive text, without recursion. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonParts } from '../../src/guard/canonical-json.js';
import { NATIVE_SCAN_LENGTH } from '../../src/guard/is-plain-ascii.js';
import { auditHash } from '../../src/storage/audit-row.js';

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

  it('in pieces, long plain texts apart, joins to the same text, and the audit hashes what it hashed before', () => {
    const long = 'x'.repeat(65_536);
    const samples: unknown[] = [
      { content: [{ type: 'text', text: long }] },
      {
        content: [
          { type: 'text', text: long },
          { type: 'text', text: `${long}y` },
        ],
        isError: false,
      },
      [long, 'short', long],
      long,
      {
        a: `${'x'.repeat(8_192)}"`,
        b: `${'x'.repeat(8_192)}é`,
        c: `${'x'.repeat(8_192)}\u0001`,
        d: 'x'.repeat(NATIVE_SCAN_LENGTH),
      },
      { text: 'x'.repeat(NATIVE_SCAN_LENGTH - 1) },
      // Short, in parts (joined to be hashed), beside a text that is not plain.
      { text: 'y'.repeat(64), other: 'née "€"', more: ['z'.repeat(NATIVE_SCAN_LENGTH)] },
      { nested: { deeper: [{ text: long, n: 1 }] }, z: null },
    ];
    // SHA-256 of the whole canonical text, as auditHash computed it before issue 20.
    const before = (value: unknown) => createHash('sha256').update(reference(value), 'utf8').digest('hex');
    for (const sample of samples) {
      const parts = canonicalJsonParts(sample) as string[];
      expect(parts.join('')).toBe(reference(sample));
      // The texts apart: every odd piece is one of the long plain texts, whole.
      for (let i = 1; i < parts.length; i += 2)
        expect((parts[i] as string).length).toBeGreaterThanOrEqual(NATIVE_SCAN_LENGTH);
      expect(auditHash(sample)).toBe(before(sample));
    }
    expect(canonicalJsonParts({ content: [{ type: 'text', text: long }] })).toHaveLength(3);
    expect(canonicalJsonParts({ text: 'x'.repeat(NATIVE_SCAN_LENGTH - 1) })).toHaveLength(1);
    expect(canonicalJsonParts({ text: 'x'.repeat(NATIVE_SCAN_LENGTH) })).toHaveLength(3);
    expect(canonicalJsonParts(undefined)).toBeUndefined();
    expect(auditHash(() => 1)).toBe(createHash('sha256').update('undefined').digest('hex'));
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
