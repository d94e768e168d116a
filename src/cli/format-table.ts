/**
 * Plain-text tables for people. A cell may hold what an upstream wrote (a tool's description):
 * its control characters — an escape sequence would drive the terminal (move the cursor,
 * rewrite earlier lines, set the window's title) — are shown as `�`, one column each.
 * @module
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `cell` with its control characters (U+0000–U+001F, DEL, U+0080–U+009F) replaced, so printing it cannot drive the terminal. */
export const printable = (cell: string): string => cell.replace(CONTROL, '\ufffd');

/** Format rows as a plain-text table with left-aligned, padded columns. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const safe = rows.map((row) => row.map(printable));
  const widths = headers.map((h, i) => Math.max(h.length, ...safe.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...safe.map(line)].join('\n');
}
