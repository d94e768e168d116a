/**
 * The upstream-text sanitizer (SPEC X4): strips what hides or smuggles instructions (HTML
 * comments, injection blocks, tags, beacons, invisible Unicode, padding), truncates, and
 * flags instruction-like phrases without stripping them. Pure: no I/O, no logging.
 * @module
 */
import {
  BEACON_URL,
  CONTROL_CHARS,
  DEFAULT_MAX_LENGTH,
  HTML_COMMENT,
  HTML_TAG,
  INJECTION_BLOCK,
  INSTRUCTION_PHRASES,
  INVISIBLE_UNICODE,
  MARKDOWN_IMAGE,
  MARKDOWN_LINK,
  PADDING,
  type SanitizeKind,
  TAG_ASCII,
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

/** Printable ASCII with tab, line feed and carriage return: no invisible, control or tag character is in it. */
const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

/** The padding patterns of each kind, built once. */
const PADDING_PATTERNS = Object.fromEntries(
  Object.entries(PADDING).map(([kind, { spaces, blankLines }]) => [
    kind,
    {
      runs: new RegExp(`[ \\t\\u00A0\\u1680\\u2000-\\u200A\\u202F\\u205F\\u3000]{${spaces + 1},}`, 'g'),
      blanks: new RegExp(`\\n(?:[ \\t]*\\r?\\n){${blankLines + 1},}`, 'g'),
    },
  ]),
) as Record<SanitizeKind, { runs: RegExp; blanks: RegExp }>;

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
  const { runs, blanks } = PADDING_PATTERNS[kind];
  const out = text.replace(runs, ' ').replace(blanks, '\n\n');
  if (out !== text) flags.add('padding');
  return out;
}

function truncate(text: string, maxLength: number, flags: Set<string>): string {
  if (text.length <= maxLength) return text;
  flags.add('truncated');
  const marker = maxLength >= TRUNCATION_MARKER.length ? TRUNCATION_MARKER : '';
  let cut = maxLength - marker.length;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // never split a surrogate pair
  return text.slice(0, cut) + marker;
}

/** The text the phrase scan reads: the visible text plus any ASCII smuggled in tag characters. */
function scanText(text: string): string {
  const smuggled = (text.match(TAG_ASCII) ?? []).map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000));
  const visible = text.replace(INVISIBLE_UNICODE, '');
  return smuggled.length > 0 ? `${visible}\n${smuggled.join('')}` : visible;
}

/** Names of the instruction-like phrases in a text (hidden parts included), as `instruction:<name>`. */
export function findInstructions(text: string, plain = PLAIN_ASCII.test(text)): string[] {
  const scanned = plain ? text : scanText(text);
  return INSTRUCTION_PHRASES.filter((p) => p.pattern.test(scanned)).map((p) => `instruction:${p.name}`);
}

/** Sanitizes one upstream string (a description or a tool result text). */
export function sanitizeText(text: string, options: SanitizeOptions): SanitizeTextResult {
  const flags = new Set<string>();
  const maxLength = Math.max(0, options.maxLength ?? DEFAULT_MAX_LENGTH[options.kind]);
  // Most text is plain ASCII, where no invisible, control or tag character can hide.
  const plain = PLAIN_ASCII.test(text);
  let out = plain ? text : stripInvisible(text, flags);
  out = stripStructure(out, flags);
  out = collapsePadding(out, options.kind, flags);
  out = truncate(out, maxLength, flags);
  for (const flag of findInstructions(text, plain)) flags.add(flag);
  return {
    text: out,
    changed: out !== text,
    flags: [...flags],
    beforeLength: text.length,
    afterLength: out.length,
  };
}
