/**
 * The upstream-text sanitizer (SPEC X4): strips what hides or smuggles instructions (HTML
 * comments, injection blocks, tags, beacons, invisible Unicode, padding), truncates, and
 * flags instruction-like phrases without stripping them. Pure: no I/O, no logging.
 * @module
 */
import { findInstructions } from './find-instructions.js';
import { isPlainAscii } from './is-plain-ascii.js';
import {
  BEACON_URL,
  CONTROL_CHARS,
  DEFAULT_MAX_LENGTH,
  HTML_COMMENT,
  HTML_TAG,
  INJECTION_BLOCK,
  INVISIBLE_UNICODE,
  MARKDOWN_IMAGE,
  MARKDOWN_LINK,
  PADDING,
  type SanitizeKind,
  TRUNCATION_MARKER,
} from './sanitize-rules.js';

/** Options of one sanitization: the kind of text and its maximum length (default per kind). */
export interface SanitizeOptions {
  readonly kind: SanitizeKind;
  readonly maxLength?: number;
}

/** What the sanitizer did to one string; `flags` are stable, deduplicated names. */
export interface SanitizeTextResult {
  readonly text: string;
  readonly changed: boolean;
  readonly flags: string[];
  readonly beforeLength: number;
  readonly afterLength: number;
}

type Step = readonly [flag: string, apply: (text: string) => string];

const replaceLinkBeacon = (match: string, label: string, url: string): string => (BEACON_URL.test(url) ? label : match);

/** The structural strips; they repeat until nothing changes, so removing one cannot form another. */
const STRIP_STEPS: readonly Step[] = [
  ['html_comment', (t) => t.replace(HTML_COMMENT, '')],
  ['injection_block', (t) => t.replace(INJECTION_BLOCK, '')],
  ['image_beacon', (t) => t.replace(MARKDOWN_IMAGE, '')],
  ['link_beacon', (t) => t.replace(MARKDOWN_LINK, replaceLinkBeacon)],
  ['tag', (t) => t.replace(HTML_TAG, '')],
];

const MAX_PASSES = 8;

/** How much of a text longer than its bound is sanitized: this many times the bound, and at least {@link LOOK_MIN_CHARS}. */
const LOOK_FACTOR = 4;
const LOOK_MIN_CHARS = 64 * 1024;

/** The padding patterns of each kind, built once, with the shortest text each can match. */
const PADDING_PATTERNS = Object.fromEntries(
  Object.entries(PADDING).map(([kind, { spaces, blankLines }]) => [
    kind,
    {
      runs: new RegExp(`[ \\t\\u00A0\\u1680\\u2000-\\u200A\\u202F\\u205F\\u3000]{${spaces + 1},}`, 'g'),
      runLength: spaces + 1,
      blanks: new RegExp(`\\n(?:[ \\t]*\\r?\\n){${blankLines + 1},}`, 'g'),
      blankNewlines: blankLines + 2,
    },
  ]),
) as Record<SanitizeKind, { runs: RegExp; runLength: number; blanks: RegExp; blankNewlines: number }>;

/** The characters of the `runs` pattern's class. */
const isPaddingSpace = (c: number) =>
  c === 0x20 ||
  c === 0x09 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;

/**
 * Whether `text` may hold `length` padding spaces in a row: any such run covers an index
 * `k·length − 1`, so when none of those is a space there is none (a few hundred reads for
 * 64 KiB instead of a RegExp pass).
 */
function mayHaveRun(text: string, length: number): boolean {
  for (let i = length - 1; i < text.length; i += length) if (isPaddingSpace(text.charCodeAt(i))) return true;
  return false;
}

/** Whether `text` holds at least `count` line feeds (fewer cannot make the blank lines a pattern wants). */
function hasNewlines(text: string, count: number): boolean {
  let at = -1;
  for (let seen = 0; seen < count; seen++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return false;
  }
  return true;
}

function stripInvisible(text: string, flags: Set<string>): string {
  const visible = text.replace(INVISIBLE_UNICODE, '');
  if (visible !== text) flags.add('invisible_unicode');
  const clean = visible.replace(CONTROL_CHARS, '');
  if (clean !== visible) flags.add('control_char');
  return clean;
}

function stripStructure(text: string, flags: Set<string>): string {
  // Every structure step needs a `<` (tags, comments) or a `](` (markdown links, images):
  // most results have neither, and skip the passes.
  if (!text.includes('<') && !text.includes('](')) return text;
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const before = current;
    for (const [flag, apply] of STRIP_STEPS) {
      const next = apply(current);
      if (next !== current) flags.add(flag);
      current = next;
    }
    if (current === before) break;
  }
  return current;
}

function collapsePadding(text: string, kind: SanitizeKind, flags: Set<string>): string {
  const { runs, runLength, blanks, blankNewlines } = PADDING_PATTERNS[kind];
  const spaced = mayHaveRun(text, runLength) ? text.replace(runs, ' ') : text;
  const out = hasNewlines(spaced, blankNewlines) ? spaced.replace(blanks, '\n\n') : spaced;
  if (out !== text) flags.add('padding');
  return out;
}

/** Cut to `maxLength` with the marker; `cutBefore` when the text was already cut (it ends with the marker). */
function truncate(text: string, maxLength: number, flags: Set<string>, cutBefore: boolean): string {
  if (text.length <= maxLength && !cutBefore) return text;
  flags.add('truncated');
  const marker = maxLength >= TRUNCATION_MARKER.length ? TRUNCATION_MARKER : '';
  return sliceWhole(text, Math.min(text.length, maxLength - marker.length)) + marker;
}

/** The first `length` UTF-16 units of `text`, never splitting a surrogate pair. */
function sliceWhole(text: string, length: number): string {
  if (length >= text.length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** Sanitizes one upstream string (a description or a tool result text). */
export function sanitizeText(text: string, options: SanitizeOptions): SanitizeTextResult {
  const flags = new Set<string>();
  const maxLength = Math.max(0, options.maxLength ?? DEFAULT_MAX_LENGTH[options.kind]);
  // At most `maxLength` characters survive: a text far longer is cut before any pass, so an
  // upstream's 4 MB answer costs what its first few hundred KB do (issue 17). The margin
  // lets what stripping removes be made up from the text after it.
  const looked = sliceWhole(text, Math.max(maxLength * LOOK_FACTOR, LOOK_MIN_CHARS));
  // Most text is plain ASCII, where no invisible, control or tag character can hide.
  const plain = isPlainAscii(looked);
  let out = plain ? looked : stripInvisible(looked, flags);
  out = stripStructure(out, flags);
  // A phrase split by a tag or a comment reads whole once they are gone
  // (`Ig<!-- -->nore previous instructions`): the stripped text is searched too.
  const unveiled = out !== looked ? out : null;
  out = collapsePadding(out, options.kind, flags);
  out = truncate(out, maxLength, flags, looked !== text);
  for (const flag of findInstructions(looked, plain)) flags.add(flag);
  if (unveiled !== null) for (const flag of findInstructions(unveiled)) flags.add(flag);
  return {
    text: out,
    changed: out !== text,
    flags: [...flags],
    beforeLength: text.length,
    afterLength: out.length,
  };
}
