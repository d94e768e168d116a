/**
 * A tool call's block in `bnity bot chat` (seed 003): JSON pretty-printed, highlighted when
 * coloured (also a line cut mid-string), long parts folded by lines and by width with their
 * size, whole with `--full`; the end-to-end output is in bot-commands.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { formatToolCall, formatToolResult } from '../../src/cli/format-tool-block.js';
import { highlightJson } from '../../src/cli/highlight-json.js';

const plain = { color: false, full: false };

describe('tool blocks', () => {
  it('pretty-prints a result whose text is JSON, and shows other text as it is', () => {
    expect(formatToolResult({ isError: false, text: '{"a":[1,true,null]}' }, plain)).toBe(
      [
        '│ result · 42 bytes',
        '│   {',
        '│     "a": [',
        '│       1,',
        '│       true,',
        '│       null',
        '│     ]',
        '│   }',
        '└ answered',
        '',
      ].join('\n'),
    );
    expect(formatToolResult({ isError: false, text: '{not json' }, plain)).toBe(
      '│ result · 9 bytes\n│   {not json\n└ answered\n',
    );
    // Arguments the provider wrote as a string that is not JSON are shown as written.
    expect(formatToolCall('t', 'half {', plain)).toBe('┌ t\n│ arguments · 6 bytes\n│   half {\n');
  });

  it('cuts a line over 200 characters and says so, with the size of the whole; --full keeps it', () => {
    const text = 'x'.repeat(5_000);
    const folded = formatToolResult({ isError: false, text }, plain);
    expect(folded).toBe(
      `│ result · 5000 bytes\n│   ${'x'.repeat(200)}…\n│   … folded: long lines cut, 5000 bytes in all; --full shows all\n└ answered\n`,
    );
    expect(formatToolResult({ isError: false, text }, { color: false, full: true })).toBe(
      `│ result · 5000 bytes\n│   ${text}\n└ answered\n`,
    );
  });

  it('counts bytes, not characters', () => {
    expect(formatToolResult({ isError: false, text: 'thé' }, plain)).toContain('│ result · 4 bytes\n');
  });

  it('highlights keys, strings, numbers and literals, also in a line cut inside a string', () => {
    expect(highlightJson('  "k": "v", 1.5e3, false')).toBe(
      '  \u001b[36m"k"\u001b[0m: \u001b[32m"v"\u001b[0m, \u001b[33m1.5e3\u001b[0m, \u001b[35mfalse\u001b[0m',
    );
    expect(highlightJson('  "k": "a \\" b, 12')).toBe('  \u001b[36m"k"\u001b[0m: \u001b[32m"a \\" b, 12\u001b[0m');
    // Digits and literals inside a string stay the string's.
    expect(highlightJson('"null 3"')).toBe('\u001b[32m"null 3"\u001b[0m');
  });
});
