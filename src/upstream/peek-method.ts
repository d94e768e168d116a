/**
 * The method of a notification line read without parsing it (issue 17): a flood is dropped
 * before it costs a `JSON.parse`, the schema check and the rest. Only the common shapes are
 * recognised, `{"method":"notifications/…"` or `{"jsonrpc":"2.0","method":"notifications/…"`
 * (whitespace allowed); for anything else the caller parses the line and looks.
 * @module
 */

const NOTIFICATIONS = 'notifications/';

/**
 * The top-level `method` of `line` when it is the first key (or the second, after
 * `"jsonrpc"`) and starts with `notifications/`; null when that cannot be told this way.
 * Never a method that is not the message's own: a string value inside `params` or a
 * result is never reached.
 */
export function peekNotificationMethod(line: string): string | null {
  let at = skipSpace(line, 0);
  if (line.charCodeAt(at) !== 0x7b /* { */) return null;
  for (let key = 0; key < 2; key++) {
    const name = readString(line, skipSpace(line, at + 1));
    if (name === null) return null;
    at = skipSpace(line, name.end);
    if (line.charCodeAt(at) !== 0x3a /* : */) return null;
    const value = readString(line, skipSpace(line, at + 1));
    if (value === null) return null;
    if (name.text === 'method') return value.text.startsWith(NOTIFICATIONS) ? value.text : null;
    if (name.text !== 'jsonrpc') return null;
    at = skipSpace(line, value.end);
    if (line.charCodeAt(at) !== 0x2c /* , */) return null;
  }
  return null;
}

/** The string starting at `at` (a `"`) and the index after it; null for none, or one with escapes. */
function readString(line: string, at: number): { text: string; end: number } | null {
  if (line.charCodeAt(at) !== 0x22 /* " */) return null;
  const close = line.indexOf('"', at + 1);
  if (close === -1) return null;
  const text = line.slice(at + 1, close);
  // An escape may hide a quote: such a line is parsed instead.
  if (text.includes('\\')) return null;
  return { text, end: close + 1 };
}

/** The index of the first character at or after `at` that is not JSON whitespace. */
function skipSpace(line: string, at: number): number {
  let i = at;
  for (;;) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
}
