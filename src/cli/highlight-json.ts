/**
 * JSON as a terminal shows it (seed 003, "syntax highlighting for JSON input/output"): the
 * text `JSON.stringify(value, null, 2)` makes, with ANSI colours for keys, strings, numbers
 * and literals. It reads one line at a time, so a line cut short (a folded block) is coloured
 * as far as it goes; punctuation and anything it does not recognize keep the default colour.
 * @module
 */

/** The SGR codes of each kind of token; `reset` ends any of them. */
export const ANSI = {
  key: '\u001b[36m',
  string: '\u001b[32m',
  number: '\u001b[33m',
  literal: '\u001b[35m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  red: '\u001b[31m',
  reset: '\u001b[0m',
} as const;

// A string (perhaps cut before its closing quote) and the colon that makes it a key, a number, or a literal.
const TOKEN = /("(?:[^"\\]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** `line` (one line of pretty-printed JSON) with ANSI colours. */
export function highlightJson(line: string): string {
  return line.replace(TOKEN, (match, text?: string, colon?: string, number?: string, literal?: string) => {
    if (text !== undefined)
      return colon !== undefined ? `${ANSI.key}${text}${ANSI.reset}${colon}` : `${ANSI.string}${text}${ANSI.reset}`;
    if (number !== undefined) return `${ANSI.number}${number}${ANSI.reset}`;
    if (literal !== undefined) return `${ANSI.literal}${literal}${ANSI.reset}`;
    return match;
  });
}
