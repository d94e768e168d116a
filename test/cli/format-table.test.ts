/**
 * The CLI's tables print what upstreams wrote (tool names and descriptions): control
 * characters in a cell are shown as `�`, so an escape sequence in a description cannot drive
 * the terminal (rewrite lines, set the title), and the columns stay aligned.
 */
import { describe, expect, it } from 'vitest';
import { formatTable, printable } from '../../src/cli/format-table.js';

describe('formatTable', () => {
  it('pads columns and leaves the last one unpadded', () => {
    expect(
      formatTable(
        ['A', 'BB'],
        [
          ['xyz', 'q'],
          ['p', 'long value'],
        ],
      ),
    ).toBe('A    BB\nxyz  q\np    long value');
  });

  it('shows control characters of a cell as one replacement character each', () => {
    const hostile = 'Reads files\u001b]0;pwned\u0007\u001b[2J\u001b[1A\r\u009b31m';
    const table = formatTable(['TOOL', 'DESCRIPTION'], [['re\u001bad', hostile]]);
    // No control character (but the rows' line feeds) is printed.
    expect([...table].filter((c) => c !== '\n' && /\p{Cc}/u.test(c))).toEqual([]);
    expect(table.split('\n')).toEqual([
      'TOOL   DESCRIPTION',
      're\ufffdad  Reads files\ufffd]0;pwned\ufffd\ufffd[2J\ufffd[1A\ufffd\ufffd31m',
    ]);
    expect(printable('tab\there')).toBe('tab\ufffdhere');
    expect(printable('plain – ünïcode ✓')).toBe('plain – ünïcode ✓');
  });
});
