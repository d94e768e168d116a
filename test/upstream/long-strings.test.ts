/**
 * A long line cut of its long strings parses to exactly what `JSON.parse` makes of the line
 * (issue 20), however the line is split into pieces, and falls back to `JSON.parse` of the
 * whole line wherever a cut could not stand (a long key, a duplicate key, a bare string), with
 * its errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonPlainBytes } from '../../src/guard/is-plain-ascii.js';
import { controlIn, cutLongStrings, LONG_STRING_CHARS, parseLine, wholeLine } from '../../src/upstream/long-strings.js';

/** `text` as bytes cut at `at` (offsets, any order), as a child's reads would hand them. */
const piecesOf = (text: string, at: readonly number[]): Buffer[] => {
  const bytes = Buffer.from(text);
  const cuts = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...cuts].map((from, i) => bytes.subarray(from, cuts[i] ?? bytes.length)).filter((p) => p.length > 0);
};

const long = (c: string, extra = 0) => c.repeat(LONG_STRING_CHARS + extra);
// Printable ASCII without a quote or a backslash: what a plain line's strings are made of.
const plainChar = fc
  .integer({ min: 0x20, max: 0x7e })
  .filter((c) => c !== 0x22 && c !== 0x5c)
  .map((c) => String.fromCharCode(c));
const plainString = fc.oneof(
  fc.array(plainChar, { maxLength: 12 }).map((cs) => cs.join('')),
  fc.tuple(plainChar, fc.integer({ min: -2, max: 300 })).map(([c, n]) => long(c, n)),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    plainString,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(
      plainString.filter((k) => k.length < 20),
      tie('node'),
      { maxKeys: 4 },
    ),
  ),
})).node;

describe('cutLongStrings / parseLine', () => {
  it('parses to what JSON.parse makes of the whole line, in any pieces', () => {
    let cuts = 0;
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), (v, at, spaced) => {
        const text = JSON.stringify(v, null, spaced ? 1 : undefined);
        const pieces = piecesOf(text, at);
        expect(pieces.every((p) => isJsonPlainBytes(p))).toBe(true);
        const cut = cutLongStrings(pieces);
        if (cut === null) return;
        cuts += 1;
        expect(cut.long.every((s) => s.length >= LONG_STRING_CHARS)).toBe(true);
        expect(wholeLine(cut)).toBe(text);
        expect(parseLine(cut)).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
    expect(cuts).toBeGreaterThan(40);
  });

  it('takes a 64 KiB tool result apart into its short JSON and its text', () => {
    const text = long('x', 65536 - LONG_STRING_CHARS);
    const line = JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id: 5 });
    const cut = cutLongStrings(piecesOf(line, [65536]));
    expect(cut?.text).toBe('{"result":{"content":[{"type":"text","text":"\\u00000"}]},"jsonrpc":"2.0","id":5}');
    expect(cut?.long).toEqual([text]);
    expect(
      (parseLine(cut as NonNullable<typeof cut>) as { result: { content: { text: string }[] } }).result.content[0]
        ?.text,
    ).toBe(text);
  });

  it('falls back to the whole line where a placeholder cannot stand, and leaves short or crowded lines alone', () => {
    const text = long('k');
    for (const line of [`{"${text}":1}`, `{"a":"${text}","a":2}`, `"${text}"`, `[{"${text}":"${long('v')}"}]`]) {
      const cut = cutLongStrings([Buffer.from(line)]);
      expect(cut, line.slice(0, 20)).not.toBeNull();
      expect(parseLine(cut as NonNullable<typeof cut>)).toEqual(JSON.parse(line));
    }
    expect(cutLongStrings([Buffer.from('{"a":"short","b":[1,2,3]}')])).toBeNull();
    const crowded = JSON.stringify({ names: Array.from({ length: 200 }, (_, i) => `t${i}`), text });
    expect(cutLongStrings([Buffer.from(crowded)])).toBeNull();
  });

  it('throws the error JSON.parse throws on the whole line when the line is not JSON', () => {
    const text = long('z');
    for (const line of [`{"a":"${text}",}`, `{"a":"${text}"`, `{"a":"${text}"} x`]) {
      const cut = cutLongStrings([Buffer.from(line)]);
      expect(cut).not.toBeNull();
      let expected: unknown;
      try {
        JSON.parse(line);
      } catch (error) {
        expected = error;
      }
      expect(expected).toBeInstanceOf(SyntaxError);
      expect(() => parseLine(cut as NonNullable<typeof cut>)).toThrow((expected as Error).message);
    }
  });

  it("never cuts a long string holding a control character: the line is JSON.parse's to refuse", () => {
    // A raw ESC, BEL, tab or CR in a string is not JSON: taken out of the line, it would have
    // passed as plain text, and the sanitizer would have let it through (X4).
    const controls = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter((c) => c !== '\n');
    for (const control of controls)
      for (const at of [0, 20, LONG_STRING_CHARS - 1]) {
        const text = `${long('y').slice(0, at)}${control}${long('y').slice(at)}`;
        const line = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${text}"}]}}`;
        expect(cutLongStrings(piecesOf(line, [7, 70]))).toBeNull();
        expect(() => JSON.parse(line)).toThrow(SyntaxError);
      }
  });

  it('finds a control byte four at a time exactly where a RegExp of the class does, at any alignment', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the reference is the class itself
    const reference = /[\x00-\x1f]/;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0x7f }), { maxLength: 80 }),
        fc.nat(7),
        fc.nat(80),
        fc.nat(80),
        (codes, shift, a, b) => {
          // Placed at `shift` in a larger buffer: the words are read from the memory's own alignment.
          const memory = Buffer.alloc(codes.length + 16, 0x61);
          Buffer.from(codes).copy(memory, shift);
          const bytes = memory.subarray(shift, shift + codes.length);
          const start = Math.min(a, b, codes.length);
          const end = Math.min(Math.max(a, b), codes.length);
          expect(controlIn(bytes, start, end)).toBe(reference.test(bytes.toString('latin1', start, end)));
        },
      ),
      { numRuns: 2_000 },
    );
    // Every control at every place of a word, in a long run of text.
    const text = Buffer.alloc(4_099, 0x7e);
    for (let code = 0; code < 0x20; code++)
      for (const at of [0, 1, 2, 3, 2_048, 4_095, 4_096, 4_098]) {
        const one = Buffer.from(text);
        one[at] = code;
        expect(controlIn(one, 0, one.length)).toBe(true);
      }
    expect(controlIn(text, 0, text.length)).toBe(false);
    // The first byte past a control counts only from `start` on.
    expect(controlIn(Buffer.from('\u0001abc'), 1, 4)).toBe(false);
  });
});
