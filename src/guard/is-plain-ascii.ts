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
 * kept, so the same string is scanned once, not three times (about 100 µs a reply); and a
 * text a stdio upstream's line was cut of is known from that line's bytes, not scanned at
 * all (ADR 049).
 * @module
 */
import { isAscii } from 'node:buffer';

/** Printable ASCII with tab, line feed and carriage return. */
export const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

/**
 * From this length on a text takes the long-text paths: these native scans, the cut of a
 * stdio line (ADR 049), the marks of the phrase scan, the answer's and the audit's parts. Not
 * where they start to pay (4 KiB) but where a string stops being a name (keys, ids, tool
 * names and enum values are shorter): ordinary answers then run the same code as a 64 KiB
 * one and keep it compiled, so the first long answer after thousands of short ones no longer
 * deoptimizes the call path (ADR 050: in the harness's 64 KiB window the p50 0.94× paired,
 * the service's CPU 0.65×; a short text pays up to ~1 µs more a path).
 */
export const NATIVE_SCAN_LENGTH = 32;

/** The ASCII characters outside plain text: the controls but tab, line feed and carriage return; DEL. */
const CONTROLS = [...Array(0x20).keys(), 0x7f]
  .filter((code) => code !== 0x09 && code !== 0x0a && code !== 0x0d)
  .map((code) => String.fromCharCode(code));

/** What JSON escapes in plain ASCII: the quote, the backslash, and tab, line feed, carriage return. */
const ESCAPED = ['"', '\\', '\t', '\n', '\r'];

/** What a long text is: plain ASCII, and if so, its own JSON between quotes too. */
export type LongTextKind = { readonly plain: boolean; readonly jsonPlain: boolean };

/**
 * The kind of the text last asked about, by the text itself. A string compares by identity at
 * once and by content otherwise, so a hit on an equal text of another object takes its place:
 * the next question about the same object is answered by identity, not by comparing 64 KiB
 * again (issue 20). Kept per process like V8's own string caches: a pure function's result,
 * never state anything depends on.
 */
let lastText: string | null = null;
let lastKind: LongTextKind = { plain: false, jsonPlain: false };

/** What a text made only of printable ASCII without `"` and `\\` is. */
const JSON_PLAIN: LongTextKind = { plain: true, jsonPlain: true };

/** At most this many characters of texts are remembered. */
const KNOWN_CHARS = 1024 * 1024;

/** Long texts known to be JSON-plain from the bytes they were read from ({@link rememberJsonPlain}). */
let known: readonly string[] = [];

/** The kind of a text of at least {@link NATIVE_SCAN_LENGTH} characters, scanned once for the last one asked. */
export function longTextKind(text: string): LongTextKind {
  // The remembered texts first: a tool result's text is one of them, the very object, while
  // the last text asked about is often the previous result's, equal but compared in full.
  for (const held of known) {
    if (held === text) {
      lastText = text;
      lastKind = JSON_PLAIN;
      return JSON_PLAIN;
    }
  }
  if (lastText === text) {
    // Equal, perhaps another object: this one is the one asked about next.
    lastText = text;
    return lastKind;
  }
  // A character above U+007F (a lone surrogate too) takes more than one byte in UTF-8.
  const plain = Buffer.byteLength(text, 'utf8') === text.length && !CONTROLS.some((control) => text.includes(control));
  lastKind = { plain, jsonPlain: plain && !ESCAPED.some((character) => text.includes(character)) };
  lastText = text;
  return lastKind;
}

/**
 * Remember `texts` as JSON-plain: long strings of a line of ASCII bytes with no `\\` and no
 * DEL ({@link isJsonPlainBytes}), where no escape can hide a quote, a control or anything
 * else (JSON forbids raw controls in a string), taken from its bytes as they are
 * (`upstream/long-strings.ts`). The sanitizer, the answer's serializer and the audit's hash
 * then need not scan them again (about 20 µs a 64 KiB tool result, issue 20). The last
 * line's texts replace those before; texts of more than a MiB in all are not remembered
 * (they would be kept alive until the next line), and are scanned as any other.
 */
export function rememberJsonPlain(texts: readonly string[]): void {
  let chars = 0;
  for (const text of texts) chars += text.length;
  // What is remembered is kept alive until the next line: a few long texts, not a huge answer.
  known = chars <= KNOWN_CHARS ? texts : [];
}

const BACKSLASH = 0x5c;
const DEL = 0x7f;

/**
 * Whether the UTF-8 bytes of a JSON text parse into strings that are all JSON-plain: every
 * byte ASCII, none a `\\` (no escape can make a quote, a control or anything else) nor DEL.
 * Native scans, about 2 µs for 64 KiB.
 */
export function isJsonPlainBytes(bytes: Buffer): boolean {
  return isAscii(bytes) && bytes.indexOf(BACKSLASH) === -1 && bytes.indexOf(DEL) === -1;
}

/** True when `text` is printable ASCII with tab, line feed and carriage return only. */
export function isPlainAscii(text: string): boolean {
  return text.length < NATIVE_SCAN_LENGTH ? PLAIN_ASCII.test(text) : longTextKind(text).plain;
}
