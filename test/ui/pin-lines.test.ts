/** The quarantine review's lines (SPEC X5): cut texts say so, cut schemas are still indented. */
import { describe, expect, it } from 'vitest';
import { indentJson, pinLines } from '../../src/ui/pin-lines.js';

const kept = (text: string, length = text.length) => ({ text, length, truncated: length > text.length, sha256: null });

describe('pin lines', () => {
  it('indents whole JSON as JSON.stringify does, and cut JSON by its brackets and commas', () => {
    expect(indentJson('{"a":[1,2]}')).toEqual(JSON.stringify({ a: [1, 2] }, null, 2).split('\n'));
    expect(indentJson('{"type":"object","properties":{"p":{"type":"str')).toEqual([
      '{',
      '  "type": "object",',
      '  "properties": {',
      '    "p": {',
      '      "type": "str',
    ]);
    // Brackets and commas inside strings are text.
    expect(indentJson('{"d":"a, {b}')).toEqual(['{', '  "d": "a, {b}']);
  });

  it('says where a text was cut and how long it is', () => {
    const lines = pinLines({
      description: kept('d'.repeat(10), 409_600),
      title: kept('Reader'),
      inputSchema: kept('{"type":"object"', 80),
      outputSchema: null,
    });
    expect(lines).toEqual([
      'title: Reader',
      'dddddddddd',
      '… cut: the first 10 of 409,600 characters',
      '',
      'input schema:',
      '{',
      '  "type": "object"',
      '… cut: the first 16 of 80 characters',
    ]);
    expect(pinLines(null)).toEqual(['(not recorded: pinned before texts were kept)']);
  });
});
