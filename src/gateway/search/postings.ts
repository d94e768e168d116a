/**
 * The postings of a search index (issue 24, ADR 038): for each (term, field), the documents
 * holding the term in that field and how often. Every (document, field, term) is one entry
 * of a few typed arrays, chained per (term, field) in the order it was added; a document's
 * entries are side by side, so removing it visits them without a list of its own. A removed
 * entry is marked dead where it lies and skipped; once the dead outnumber the living, the
 * arrays are compacted and the terms numbered again.
 *
 * Growing typed arrays cost a copy now and then; thousands of small arrays cost a copy at
 * every young-generation collection while an index is being built (ADR 038, "Revised").
 * @module
 */

export const NONE = -1;
/** Dead entries tolerated before a compaction is worth its copy. */
const MIN_WASTE = 4096;

/**
 * The postings of an index whose documents have `width` fields: state read and written by the
 * module functions below (one compiled copy for every index, ADR 038).
 */
export type Postings = {
  readonly width: number;
  // Entries: document (NONE once removed), count, next entry of the same (term, field), and that (term, field).
  doc: Int32Array;
  count: Int32Array;
  next: Int32Array;
  slot: Int32Array;
  entries: number;
  dead: number;
  // Per (term, field) slot, `term · width + field`: first and last entry, live holders.
  head: Int32Array;
  tail: Int32Array;
  holders: Int32Array;
  // Per document number: its entries [start, end), and its fields' lengths.
  start: Int32Array;
  end: Int32Array;
  lengths: Int32Array;
  readonly freeNums: number[];
  nums: number;
};

/**
 * The first size of each array, in entries, terms or documents: small on purpose. V8 compiles
 * code that reads a field which was never replaced as if it never will be, and throws that code
 * away when it is; arrays this small are first replaced (grown) at the first documents of the
 * first index, before anything is compiled, instead of midway through it (ADR 038).
 */
export const FIRST_SIZE = 16;

/** Empty postings for documents of `width` fields. */
export function createPostings(width: number): Postings {
  return {
    width,
    doc: new Int32Array(FIRST_SIZE),
    count: new Int32Array(FIRST_SIZE),
    next: new Int32Array(FIRST_SIZE),
    slot: new Int32Array(FIRST_SIZE),
    entries: 0,
    dead: 0,
    head: new Int32Array(FIRST_SIZE * width).fill(NONE),
    tail: new Int32Array(FIRST_SIZE * width).fill(NONE),
    holders: new Int32Array(FIRST_SIZE * width),
    start: new Int32Array(FIRST_SIZE),
    end: new Int32Array(FIRST_SIZE),
    lengths: new Int32Array(FIRST_SIZE * width),
    freeNums: [],
    nums: 0,
  };
}

/** A number for a new document; its entries are those appended until {@link closeDoc}. */
export function openDoc(p: Postings): number {
  const num = p.freeNums.pop() ?? p.nums++;
  if (num >= p.start.length) {
    p.start = grown(p.start, p.start.length * 2);
    p.end = grown(p.end, p.end.length * 2);
    p.lengths = grown(p.lengths, p.lengths.length * 2);
  }
  p.start[num] = p.entries;
  return num;
}

export function closeDoc(p: Postings, num: number): void {
  p.end[num] = p.entries;
}

/** Document `num` holds term `term` once in `field`. */
export function appendPosting(p: Postings, num: number, term: number, field: number): void {
  if (p.entries === p.doc.length) growEntries(p);
  const s = term * p.width + field;
  if (s >= p.head.length) growSlots(p, term + 1);
  const e = p.entries++;
  p.doc[e] = num;
  p.count[e] = 1;
  p.slot[e] = s;
  link(p, e, s);
}

/** The document appended last in (`term`, `field`) holds the term once more. */
export function countAgain(p: Postings, term: number, field: number): void {
  const e = p.tail[term * p.width + field] as number;
  p.count[e] = (p.count[e] as number) + 1;
}

export function setLength(p: Postings, num: number, field: number, length: number): void {
  p.lengths[num * p.width + field] = length;
}

export const lengthOf = (p: Postings, num: number, field: number): number => p.lengths[num * p.width + field] as number;

/** How many documents hold `term` in `field`. */
export const heldBy = (p: Postings, term: number, field: number): number =>
  (p.holders[term * p.width + field] as number) || 0;

/** Each document holding `term` in `field`, with how often, in the order they were added. */
export function forEachHolder(
  p: Postings,
  term: number,
  field: number,
  visit: (num: number, times: number) => void,
): void {
  for (let e = p.head[term * p.width + field] as number; e !== NONE; e = p.next[e] as number) {
    const num = p.doc[e] as number;
    if (num !== NONE) visit(num, p.count[e] as number);
  }
}

/**
 * Forget document `num`: `dropped(context, term)` once for each (term, field) it held. Pass a
 * module function as `dropped`.
 */
export function removeDoc<C>(p: Postings, num: number, context: C, dropped: (context: C, term: number) => void): void {
  for (let e = p.start[num] as number; e < (p.end[num] as number); e++) {
    const s = p.slot[e] as number;
    p.holders[s] = (p.holders[s] as number) - 1;
    p.doc[e] = NONE;
    p.dead += 1;
    dropped(context, (s / p.width) | 0);
  }
  p.end[num] = p.start[num] as number;
  p.freeNums.push(num);
}

/** Whether dead entries outnumber the living enough to compact. */
export const wasteful = (p: Postings): boolean => p.dead > MIN_WASTE && p.dead * 2 > p.entries;

/**
 * Drop the dead entries, the terms numbered again: `newId[term]` is a live term's new number
 * (NONE, -1, for a dead one), and `terms` how many live.
 */
export function compact(p: Postings, newId: Int32Array, terms: number): void {
  const { width } = p;
  const size = Math.max(1024, (p.entries - p.dead) * 2);
  const [oldDoc, oldCount, oldSlot] = [p.doc, p.count, p.slot];
  p.doc = new Int32Array(size);
  p.count = new Int32Array(size);
  p.next = new Int32Array(size);
  p.slot = new Int32Array(size);
  p.head = new Int32Array(Math.max(256, terms) * width).fill(NONE);
  p.tail = new Int32Array(p.head.length).fill(NONE);
  p.holders = new Int32Array(p.head.length);
  let kept = 0;
  let previous = NONE;
  for (let e = 0; e < p.entries; e++) {
    const num = oldDoc[e] as number;
    if (num === NONE) continue;
    if (num !== previous) p.start[num] = kept;
    previous = num;
    const old = oldSlot[e] as number;
    const s = (newId[(old / width) | 0] as number) * width + (old % width);
    p.doc[kept] = num;
    p.count[kept] = oldCount[e] as number;
    p.slot[kept] = s;
    link(p, kept, s);
    kept += 1;
    p.end[num] = kept;
  }
  p.entries = kept;
  p.dead = 0;
}

function growEntries(p: Postings): void {
  const size = p.doc.length * 2;
  p.doc = grown(p.doc, size);
  p.count = grown(p.count, size);
  p.next = grown(p.next, size);
  p.slot = grown(p.slot, size);
}

function growSlots(p: Postings, terms: number): void {
  const size = Math.max(terms * p.width, p.head.length * 2);
  p.head = grown(p.head, size, NONE);
  p.tail = grown(p.tail, size, NONE);
  p.holders = grown(p.holders, size);
}

/** Chain entry `e` last in its (term, field). */
function link(p: Postings, e: number, s: number): void {
  const last = p.tail[s] as number;
  if (last === NONE) p.head[s] = e;
  else p.next[last] = e;
  p.tail[s] = e;
  p.next[e] = NONE;
  p.holders[s] = (p.holders[s] as number) + 1;
}

/** `array` copied into one of `size` elements, the new ones `fill`. */
export function grown(array: Int32Array, size: number, fill = 0): Int32Array {
  const out = new Int32Array(size);
  out.set(array);
  if (fill !== 0) out.fill(fill, array.length);
  return out;
}
