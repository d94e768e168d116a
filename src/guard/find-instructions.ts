/**
 * The instruction-phrase scan of the sanitizer (SPEC X4): which of `INSTRUCTION_PHRASES` a
 * text contains. In plain ASCII text (most results), a phrase's pattern runs only when the
 * text holds the first letter of one of its `leads`, in either case (an `indexOf` per case,
 * many times cheaper than a RegExp pass over 64 KiB: issue 8); other text is scanned by
 * every pattern as before. The answer is the same as testing every pattern: the patterns are
 * case-insensitive without `u`, so a match is ASCII and begins with one of its leads in
 * either case. (Gating on whole leads costs more than it saves on real text, where the
 * letters are all there: measured in docs/performance.md.)
 * @module
 */
import { isPlainAscii } from './is-plain-ascii.js';
import { INSTRUCTION_PHRASES, INVISIBLE_UNICODE, TAG_ASCII } from './sanitize-rules.js';

const PHRASES = INSTRUCTION_PHRASES.map(({ name, leads, pattern }) => ({
  flag: `instruction:${name}`,
  firsts: [...new Set(leads.map((lead) => lead.charAt(0).toLowerCase()))],
  pattern,
}));
/** Below this length the patterns run directly: lower-casing would cost more than it saves. */
const GATED_LENGTH = 1024;

/** The text the phrase scan reads: the visible text plus any ASCII smuggled in tag characters. */
function scanText(text: string): string {
  const smuggled = (text.match(TAG_ASCII) ?? []).map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000));
  const visible = text.replace(INVISIBLE_UNICODE, '');
  return smuggled.length > 0 ? `${visible}\n${smuggled.join('')}` : visible;
}

/** Names of the instruction-like phrases in a text (hidden parts included), as `instruction:<name>`. */
export function findInstructions(text: string, plain = isPlainAscii(text)): string[] {
  const scanned = plain ? text : scanText(text);
  if (!plain || text.length < GATED_LENGTH) return PHRASES.filter((p) => p.pattern.test(scanned)).map((p) => p.flag);
  // Each letter in either case, searched where the text lies: no lower-cased copy of a 64 KiB
  // result to collect afterwards (issue 20).
  const present = new Map<string, boolean>();
  const holds = (first: string) => {
    let found = present.get(first);
    if (found === undefined) {
      const upper = first.toUpperCase();
      found = text.includes(first) || (upper !== first && text.includes(upper));
      present.set(first, found);
    }
    return found;
  };
  return PHRASES.filter((p) => p.firsts.some(holds) && p.pattern.test(text)).map((p) => p.flag);
}
