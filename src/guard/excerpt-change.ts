/**
 * Bounded before/after excerpts of what a rewrite changed (seed 001: the sanitizer logs
 * "before/after for debugging"): the stretch around the first difference of two texts,
 * with known secrets masked in the whole texts before anything is cut, so that no part of
 * a secret survives at an excerpt's edge either. Pure.
 * @module
 */

/** What a masked secret reads as in an excerpt (as in the log: `src/log/create-logger.ts`). */
export const REDACTED = '[redacted]';

/** Characters of context kept before the first difference. */
const LEAD = 40;

/** Options of {@link excerptChange}. */
export type ExcerptOptions = {
  /** Characters of each excerpt at most (an ellipsis marks a cut end). */
  maxChars: number;
  /** Values never to show: replaced by {@link REDACTED} (those shorter than 4 characters are left). */
  secrets: Iterable<string>;
};

/** `text` with every secret of 4 characters or more replaced, longest first (one may hold another). */
export function maskKnown(text: string, secrets: Iterable<string>): string {
  const sorted = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of sorted) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Length of the common prefix of `a` and `b`. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** `text` from `start`, at most `maxChars` characters, an ellipsis at each end that was cut. */
function window(text: string, start: number, maxChars: number): string {
  const head = start > 0 ? '…' : '';
  const room = Math.max(1, maxChars - head.length);
  const body = text.slice(start, start + room);
  const tail = start + room < text.length ? '…' : '';
  return `${head}${tail ? body.slice(0, Math.max(0, room - 1)) : body}${tail}`;
}

/**
 * Excerpts of `before` and `after` around their first difference: each at most
 * `maxChars` characters, starting a little before the difference.
 */
export function excerptChange(
  before: string,
  after: string,
  { maxChars, secrets }: ExcerptOptions,
): { before: string; after: string } {
  const list = [...secrets];
  const was = maskKnown(before, list);
  const now = maskKnown(after, list);
  const start = Math.max(0, commonPrefix(was, now) - LEAD);
  return { before: window(was, start, maxChars), after: window(now, Math.min(start, now.length), maxChars) };
}
