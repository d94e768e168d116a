/**
 * A long line of a stdio upstream parsed without its long strings (issue 20). In a line of
 * ASCII bytes without a backslash (`isJsonPlainBytes`) no string holds an escape, so every
 * `"` opens or closes one: the long strings (a 64 KiB tool result's text) are found with
 * `indexOf`, taken out as Latin-1 (their bytes, copied once), and `JSON.parse` reads the rest,
 * where each stands as a placeholder (`"\u0000<n>"`, an escape: nothing of the line's own can
 * be one), put back in the parsed value. `JSON.parse` still reads the whole message (its
 * grammar, its errors); it only no longer walks 64 KiB of text character by character
 * (25 µs a 64 KiB answer here, the cut 5). A placeholder not found again where it was (a long
 * key, a duplicate key's lost value) sends the whole line to `JSON.parse`, as before.
 * @module
 */
import { NATIVE_SCAN_LENGTH, rememberJsonPlain } from '../guard/is-plain-ascii.js';

const QUOTE = 0x22;
/** Each byte of a 32-bit word: 0x20, below which a byte is a control character (not JSON in a string). */
const SPACES = 0x20202020;
/** Each byte's high bit. */
const HIGH_BITS = 0x80808080;

/** From this many characters on a string is taken out (the sanitizer's own long text). */
export const LONG_STRING_CHARS = NATIVE_SCAN_LENGTH;

/**
 * Past this many strings in a line, no cut: a listing's names cost more to find than to
 * parse, and a long line without a long string is given up on after a few searches.
 */
const MAX_STRINGS = 32;

/** A line cut: the JSON text with placeholders, and the strings they stand for. */
export type CutLine = { readonly text: string; readonly long: readonly string[] };

/**
 * The line made of `pieces` (its bytes in order, each passing `isJsonPlainBytes`) with its
 * long strings taken out; null when it holds none, or too many strings to be worth it.
 */
export function cutLongStrings(pieces: readonly Buffer[]): CutLine | null {
  const long: string[] = [];
  let text = '';
  // Positions are offsets into the pieces joined; `copied` is where the text still to copy begins.
  let copied = 0;
  let open = -1;
  let strings = 0;
  let base = 0;
  for (const piece of pieces) {
    for (let at = piece.indexOf(QUOTE); at !== -1; at = piece.indexOf(QUOTE, at + 1)) {
      const quote = base + at;
      if (open === -1) {
        open = quote;
        continue;
      }
      if (++strings > MAX_STRINGS) return null;
      if (quote - open - 1 >= LONG_STRING_CHARS) {
        // A control character is not JSON inside a string: `JSON.parse` of the whole line is
        // to refuse it with its own error, not the cut let it through as plain text.
        if (holdsControl(pieces, open + 1, quote)) return null;
        const string = latin1(pieces, open + 1, quote);
        text += `${latin1(pieces, copied, open)}"\\u0000${long.length}"`;
        long.push(string);
        copied = quote + 1;
      }
      open = -1;
    }
    base += piece.length;
  }
  return long.length === 0 ? null : { text: text + latin1(pieces, copied, base), long };
}

/** Whether a byte from `start` to `end` (offsets into the pieces joined) is a control character. */
function holdsControl(pieces: readonly Buffer[], start: number, end: number): boolean {
  let base = 0;
  for (const piece of pieces) {
    const from = Math.max(start - base, 0);
    const to = Math.min(end - base, piece.length);
    if (from < to && controlIn(piece, from, to)) return true;
    base += piece.length;
    if (base >= end) break;
  }
  return false;
}

/**
 * Whether `bytes` (all ASCII: `isJsonPlainBytes`) hold a byte below 0x20 from `start` to `end`,
 * four bytes at a time: in a word of bytes under 0x80, `(w - 0x20202020) & ~w` has a byte's
 * high bit set at the first byte under 0x20 (a borrow can only mark bytes after one). 64 KiB
 * in ~6.5 µs, where a RegExp of the class took 16 (issue 20).
 */
export function controlIn(bytes: Buffer, start: number, end: number): boolean {
  let at = start;
  // Byte by byte up to a word boundary of the underlying memory, which a Uint32Array needs.
  const aligned = Math.min(end, start + ((4 - ((bytes.byteOffset + start) & 3)) & 3));
  for (; at < aligned; at++) if ((bytes[at] as number) < 0x20) return true;
  const count = (end - at) >>> 2;
  if (count > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + at, count);
    const fours = count & ~3;
    let i = 0;
    for (; i < fours; i += 4) {
      const a = words[i] as number;
      const b = words[i + 1] as number;
      const c = words[i + 2] as number;
      const d = words[i + 3] as number;
      if ((((a - SPACES) & ~a) | ((b - SPACES) & ~b) | ((c - SPACES) & ~c) | ((d - SPACES) & ~d)) & HIGH_BITS)
        return true;
    }
    for (; i < count; i++) {
      const a = words[i] as number;
      if ((a - SPACES) & ~a & HIGH_BITS) return true;
    }
    at += count * 4;
  }
  for (; at < end; at++) if ((bytes[at] as number) < 0x20) return true;
  return false;
}

/** The bytes from `start` to `end` (offsets into the pieces joined) as Latin-1 text. */
function latin1(pieces: readonly Buffer[], start: number, end: number): string {
  let text = '';
  let base = 0;
  for (const piece of pieces) {
    const from = Math.max(start - base, 0);
    const to = Math.min(end - base, piece.length);
    if (from < to) text += piece.toString('latin1', from, to);
    base += piece.length;
    if (base >= end) break;
  }
  return text;
}

/**
 * The value of a line, cut or not. A cut line's text is parsed and each placeholder given its
 * string back; its long strings are then known to be JSON-plain (`rememberJsonPlain`: the
 * sanitizer, the serializer and the audit's hash need not scan them).
 */
export function parseLine(line: string | CutLine): unknown {
  if (typeof line === 'string') return JSON.parse(line);
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch {
    // Not JSON: the whole line's own error, positions and all.
    return JSON.parse(wholeLine(line));
  }
  if (!restore(value, line.long)) return JSON.parse(wholeLine(line));
  rememberJsonPlain(line.long);
  return value;
}

/** The line as it was read. */
export function wholeLine(line: string | CutLine): string {
  if (typeof line === 'string') return line;
  const { text, long } = line;
  return text.replace(/"\\u0000(\d+)"/g, (_, n: string) => `"${long[Number(n)]}"`);
}

/** Puts each long string back where its placeholder is; false when one is not found as a value. */
function restore(value: unknown, long: readonly string[]): boolean {
  let left = long.length;
  const open: object[] = value !== null && typeof value === 'object' ? [value] : [];
  while (open.length > 0 && left > 0) {
    const node = open.pop() as Record<string, unknown> | unknown[];
    const keys = Array.isArray(node) ? null : Object.keys(node);
    const count = keys === null ? (node as unknown[]).length : keys.length;
    for (let i = 0; i < count; i++) {
      const key = keys === null ? i : (keys[i] as string);
      const item = (node as Record<string | number, unknown>)[key];
      if (typeof item === 'string') {
        if (item.charCodeAt(0) !== 0) continue;
        const string = long[Number(item.slice(1))];
        if (string === undefined) return false;
        (node as Record<string | number, unknown>)[key] = string;
        left -= 1;
      } else if (item !== null && typeof item === 'object') open.push(item);
    }
  }
  return left === 0;
}
