/**
 * Whether a text is plain ASCII — printable, with tab, line feed and carriage return — so no
 * invisible, control or tag character can hide in it (SPEC X4's gate, issue 20). A RegExp
 * pass costs about 2 ns a character (150 µs on a 64 KiB result); a long text is instead
 * measured by Node's native UTF-8 counter (all ASCII when every character is one byte) and
 * searched for each ASCII control with `includes`, which V8 runs as `memchr`: about a
 * quarter of the RegExp's time on 64 KiB, the same answer.
 *
 * One 64 KiB tool result is asked about three times on its way (the sanitizer's gate, the
 * answer's serializer, the audit's canonical JSON): the verdict on the last long text is
 * kept, so the same string is scanned once, not three times (about 100 µs a reply).
 * @module
 */

/** Printable ASCII with tab, line feed and carriage return. */
export const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

/** From this length on, the native scans are cheaper than the RegExp. */
export const NATIVE_SCAN_LENGTH = 4096;

/** The ASCII characters outside plain text: the controls but tab, line feed and carriage return; DEL. */
const CONTROLS = [...Array(0x20).keys(), 0x7f]
  .filter((code) => code !== 0x09 && code !== 0x0a && code !== 0x0d)
  .map((code) => String.fromCharCode(code));

/** What JSON escapes in plain ASCII: the quote, the backslash, and tab, line feed, carriage return. */
const ESCAPED = ['"', '\\', '\t', '\n', '\r'];

/** What a long text is: plain ASCII, and if so, its own JSON between quotes too. */
export type LongTextKind = { readonly plain: boolean; readonly jsonPlain: boolean };

/**
 * The kinds of the texts last asked about, by the text itself (a one-entry memo: the same
 * string object compares by identity at once). Kept per process like V8's own string caches:
 * a pure function's result, never state anything depends on.
 */
let last: { text: string; kind: LongTextKind } | null = null;

/** The kind of a text of at least {@link NATIVE_SCAN_LENGTH} characters, scanned once for the last one asked. */
export function longTextKind(text: string): LongTextKind {
  if (last !== null && last.text === text) return last.kind;
  // A character above U+007F (a lone surrogate too) takes more than one byte in UTF-8.
  const plain = Buffer.byteLength(text, 'utf8') === text.length && !CONTROLS.some((control) => text.includes(control));
  const kind = { plain, jsonPlain: plain && !ESCAPED.some((character) => text.includes(character)) };
  last = { text, kind };
  return kind;
}

/** True when `text` is printable ASCII with tab, line feed and carriage return only. */
export function isPlainAscii(text: string): boolean {
  return text.length < NATIVE_SCAN_LENGTH ? PLAIN_ASCII.test(text) : longTextKind(text).plain;
}
