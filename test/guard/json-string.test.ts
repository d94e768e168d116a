/** Long texts written as JSON without an escaping pass, and plain ASCII told by native scans (issue 20). */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isJsonPlainBytes,
  isPlainAscii,
  longTextKind,
  NATIVE_SCAN_LENGTH,
  PLAIN_ASCII,
  rememberJsonPlain,
} from '../../src/guard/is-plain-ascii.js';
import { isJsonPlain, jsonString } from '../../src/guard/json-string.js';

const long = (insert: string) => `${'x'.repeat(NATIVE_SCAN_LENGTH)}${insert}${'y'.repeat(100)}`;
// Every character that changes an answer, in a long and in a short text.
const specials = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  '"',
  '\\',
  '\x7f',
  '\x80',
  'é',
  '\u2028',
  '\u200b',
  '\ud800',
  '\udfff',
  '😀',
  '\u{e0041}',
];

describe('isPlainAscii', () => {
  it('answers what the RegExp answers, for long and short texts with any special character', () => {
    for (const character of ['', ...specials]) {
      for (const text of [long(character), `ab${character}c`, character.repeat(NATIVE_SCAN_LENGTH)]) {
        expect(isPlainAscii(text), JSON.stringify(character)).toBe(PLAIN_ASCII.test(text));
      }
    }
  });

  it('finds a control character at either end of a long text', () => {
    expect(isPlainAscii(`\u0000${long('')}`)).toBe(false);
    expect(isPlainAscii(`${long('')}\u007f`)).toBe(false);
    expect(isPlainAscii(long('\t\n\r'))).toBe(true);
  });

  it('scans a long text once for all its askers, and never answers for another text from that scan', () => {
    const plain = long('');
    const first = longTextKind(plain);
    // The same string again (the gate, then the answer, then the audit): the same verdict object, no new scan.
    expect(longTextKind(plain)).toBe(first);
    expect(first).toEqual({ plain: true, jsonPlain: true });
    // A text of the same length that differs by one character is its own verdict, each time.
    const tainted = `${plain.slice(0, -1)}\u0007`;
    expect(tainted.length).toBe(plain.length);
    expect(isPlainAscii(tainted)).toBe(false);
    expect(isJsonPlain(tainted)).toBe(false);
    expect(isPlainAscii(plain)).toBe(true);
    const quoted = `${plain.slice(0, -1)}"`;
    expect(isPlainAscii(quoted)).toBe(true);
    expect(isJsonPlain(quoted)).toBe(false);
    expect(isJsonPlain(plain)).toBe(true);
  });
});

describe('jsonString', () => {
  it('writes exactly what JSON.stringify writes, for long and short texts with any special character', () => {
    for (const character of ['', ...specials]) {
      for (const text of [long(character), `${character}${long('')}`, `ab${character}c`]) {
        expect(jsonString(text), JSON.stringify(character)).toBe(JSON.stringify(text));
      }
    }
  });
});

/** The strings a JSON value holds, keys included. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, item]) => [key, ...stringsOf(item)])
      : [];
const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

describe('JSON-plain bytes', () => {
  it('says a line is plain only when every string parsed from it is printable ASCII without a quote or a backslash', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom(...specials), fc.constantFrom('x'.repeat(5000), 'plain text'));
    const value = fc.oneof(
      fc.dictionary(text, text),
      fc.record({ result: fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text })) }) }),
    );
    fc.assert(
      fc.property(value, (v) => {
        const json = JSON.stringify(v);
        const plain = stringsOf(JSON.parse(json)).every((s) => JSON_PLAIN.test(s));
        if (isJsonPlainBytes(Buffer.from(json))) expect(plain).toBe(true);
        // A plain value without a DEL has plain bytes too: the check misses nothing it could use.
        if (plain && !json.includes('\x7f')) expect(isJsonPlainBytes(Buffer.from(json))).toBe(true);
      }),
      { numRuns: 400 },
    );
    for (const bad of ['{"a":"\\u0007"}', '{"a":"\x7f"}', '{"a":"é"}', '{"a":"\\""}'])
      expect(isJsonPlainBytes(Buffer.from(bad)), bad).toBe(false);
  });

  it("answers a remembered line's long texts from memory, and only the last line's", () => {
    const first = `${'a'.repeat(NATIVE_SCAN_LENGTH)}1`;
    // A text the bytes would never call plain, remembered all the same: the verdict is the
    // memory's, not a scan's (which is why only texts of lines isJsonPlainBytes passes are).
    const unscanned = `${'c'.repeat(NATIVE_SCAN_LENGTH)}\u0007`;
    rememberJsonPlain([first, unscanned]);
    for (const text of [first, unscanned]) expect(longTextKind(text)).toEqual({ plain: true, jsonPlain: true });
    // A copy of a remembered text (another string, equal) is answered alike.
    expect(longTextKind(`${'a'.repeat(NATIVE_SCAN_LENGTH)}${1}`)).toEqual({ plain: true, jsonPlain: true });
    rememberJsonPlain([]);
    expect(longTextKind(`${'d'.repeat(NATIVE_SCAN_LENGTH)}\u0007`)).toEqual({ plain: false, jsonPlain: false });
    expect(isPlainAscii(unscanned)).toBe(false);
    // More than a MiB of texts is not kept alive: each is scanned as any other.
    const huge = `${'h'.repeat(1024 * 1024)}\u0007`;
    rememberJsonPlain([huge]);
    expect(longTextKind(huge)).toEqual({ plain: false, jsonPlain: false });
  });
});
