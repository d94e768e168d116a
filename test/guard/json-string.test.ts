/** Long texts written as JSON without an escaping pass, and plain ASCII told by native scans (issue 20). */
import { describe, expect, it } from 'vitest';
import { isPlainAscii, longTextKind, NATIVE_SCAN_LENGTH, PLAIN_ASCII } from '../../src/guard/is-plain-ascii.js';
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
