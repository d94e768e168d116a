/**
 * The instruction-phrase scan of the sanitizer (SPEC X4): which of `INSTRUCTION_PHRASES` a
 * text contains. In plain ASCII text (most results), a phrase's pattern runs only when the
 * text holds one of its phrase's marks, in either case (an `indexOf` per case, many times
 * cheaper than a RegExp pass over 64 KiB: issue 8). Every match begins with one of its
 * phrase's leads, so it holds every character of that lead; the marks are one character of
 * each lead, chosen once for all phrases so that few cover every lead ({@link coverLeads}):
 * a text holding none of a phrase's marks cannot match it. The answer is the same as testing
 * every pattern: the patterns are case-insensitive without `u`, so a match is ASCII and its
 * letters are its lead's in either case. Other text is scanned by every pattern. (Gating on
 * whole leads costs more than it saves on real text, where the letters are all there:
 * measured in docs/performance.md.)
 * @module
 */
import { isPlainAscii, NATIVE_SCAN_LENGTH } from './is-plain-ascii.js';
import { INSTRUCTION_PHRASES, INVISIBLE_UNICODE, TAG_ASCII } from './sanitize-rules.js';

/**
 * One character of each lead (lower case), chosen greedily: the character most of the leads
 * not yet covered hold, then the next, until every lead holds one (ties: the lower code).
 * On today's phrases: `e`, `o`, `c`, `a`, `.`, `_` — ten searches on a text that has none of
 * them, where the leads' first letters took 38 (issue 20).
 */
export function coverLeads(leads: readonly string[]): Map<string, string> {
  const mark = new Map<string, string>();
  let left = [...new Set(leads.map((lead) => lead.toLowerCase()))];
  while (left.length > 0) {
    const holding = new Map<string, number>();
    for (const lead of left) for (const c of new Set(lead)) holding.set(c, (holding.get(c) ?? 0) + 1);
    let best = '';
    let most = 0;
    for (const [c, count] of holding) if (count > most || (count === most && c < best)) [best, most] = [c, count];
    for (const lead of left) if (lead.includes(best)) mark.set(lead, best);
    left = left.filter((lead) => !lead.includes(best));
  }
  return mark;
}

const MARKS = coverLeads(INSTRUCTION_PHRASES.flatMap((p) => p.leads));

/** The distinct marks, each in lower case and (when it has one) upper case. */
const MARK_LIST = [...new Set(MARKS.values())];
const MARK_UPPER = MARK_LIST.map((mark) => (mark.toUpperCase() === mark ? null : mark.toUpperCase()));

const PHRASES = INSTRUCTION_PHRASES.map(({ name, leads, pattern }) => ({
  flag: `instruction:${name}`,
  /** Indexes in {@link MARK_LIST}: a bit each in the scan's masks. */
  marks: [...new Set(leads.map((lead) => MARK_LIST.indexOf(MARKS.get(lead.toLowerCase()) as string)))],
  pattern,
}));

/** The text the phrase scan reads: the visible text plus any ASCII smuggled in tag characters. */
function scanText(text: string): string {
  const smuggled = (text.match(TAG_ASCII) ?? []).map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000));
  const visible = text.replace(INVISIBLE_UNICODE, '');
  return smuggled.length > 0 ? `${visible}\n${smuggled.join('')}` : visible;
}

/** Names of the instruction-like phrases in a text (hidden parts included), as `instruction:<name>`. */
export function findInstructions(text: string, plain = isPlainAscii(text)): string[] {
  const scanned = plain ? text : scanText(text);
  if (!plain || text.length < NATIVE_SCAN_LENGTH)
    return PHRASES.filter((p) => p.pattern.test(scanned)).map((p) => p.flag);
  // Each mark in either case, searched where the text lies (no lower-cased copy of a 64 KiB
  // result to collect afterwards, issue 20), once, when a phrase first asks: two bit masks,
  // nothing allocated (this runs for every text of a sentence's length, ADR 050).
  let searched = 0;
  let held = 0;
  const flags: string[] = [];
  for (const phrase of PHRASES) {
    let holds = false;
    for (const i of phrase.marks) {
      const bit = 1 << i;
      if ((searched & bit) === 0) {
        searched |= bit;
        const upper = MARK_UPPER[i];
        if (text.includes(MARK_LIST[i] as string) || (upper != null && text.includes(upper))) held |= bit;
      }
      if ((held & bit) !== 0) {
        holds = true;
        break;
      }
    }
    if (holds && phrase.pattern.test(text)) flags.push(phrase.flag);
  }
  return flags;
}
