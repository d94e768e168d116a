/**
 * A string as JSON, as `JSON.stringify` writes it, found faster for a long plain text (issue
 * 20): `JSON.stringify` escapes character by character (about 2 ns each: 140 µs for a
 * 64 KiB tool result, paid again for each copy the gateway writes or hashes), while printable
 * ASCII without `"` and `\` is its own JSON between quotes, which native scans tell
 * ({@link isPlainAscii}).
 * @module
 */
import { longTextKind, NATIVE_SCAN_LENGTH } from './is-plain-ascii.js';

/**
 * True when `text` is long, and printable ASCII without `"` or `\\`: its JSON is itself between
 * quotes, and its UTF-8 bytes are its Latin-1 ones (a copy, no encoding).
 */
export function isJsonPlain(text: string): boolean {
  return text.length >= NATIVE_SCAN_LENGTH && longTextKind(text).jsonPlain;
}

/** `JSON.stringify(text)`: the same characters, found without escaping a long plain text. */
export function jsonString(text: string): string {
  return isJsonPlain(text) ? `"${text}"` : JSON.stringify(text);
}
