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

const NONE = -1;
/** Dead entries tolerated before a compaction is worth its copy. */
const MIN_WASTE = 4096;

/** Empty postings for documents of `width` fields. */
export function createPostings(width: number) {
  // Entries: document (NONE once removed), count, next entry of the same (term, field), and that (term, field).
  let doc: Int32Array = new Int32Array(1024);
  let count: Int32Array = new Int32Array(1024);
  let next: Int32Array = new Int32Array(1024);
  let slot: Int32Array = new Int32Array(1024);
  let entries = 0;
  let dead = 0;
  // Per (term, field) slot, `term · width + field`: first and last entry, live holders.
  let head: Int32Array = new Int32Array(256 * width).fill(NONE);
  let tail: Int32Array = new Int32Array(256 * width).fill(NONE);
  let held: Int32Array = new Int32Array(256 * width);
  // Per document number: its entries [start, end), and its fields' lengths.
  let start: Int32Array = new Int32Array(256);
  let end: Int32Array = new Int32Array(256);
  let lengths: Int32Array = new Int32Array(256 * width);
  const freeNums: number[] = [];
  let nums = 0;

  const growEntries = (): void => {
    const size = doc.length * 2;
    doc = grown(doc, size);
    count = grown(count, size);
    next = grown(next, size);
    slot = grown(slot, size);
  };

  const growSlots = (terms: number): void => {
    const size = Math.max(terms * width, head.length * 2);
    head = grown(head, size, NONE);
    tail = grown(tail, size, NONE);
    held = grown(held, size);
  };

  /** Chain entry `e` last in its (term, field). */
  const link = (e: number, s: number): void => {
    const last = tail[s] as number;
    if (last === NONE) head[s] = e;
    else next[last] = e;
    tail[s] = e;
    next[e] = NONE;
    held[s] = (held[s] as number) + 1;
  };

  return {
    /** A number for a new document; its entries are those appended until {@link closeDoc}. */
    openDoc(): number {
      const num = freeNums.pop() ?? nums++;
      if (num >= start.length) {
        start = grown(start, start.length * 2);
        end = grown(end, end.length * 2);
        lengths = grown(lengths, lengths.length * 2);
      }
      start[num] = entries;
      return num;
    },
    closeDoc(num: number): void {
      end[num] = entries;
    },
    /** Document `num` holds term `term` once in `field`. */
    append(num: number, term: number, field: number): void {
      if (entries === doc.length) growEntries();
      const s = term * width + field;
      if (s >= head.length) growSlots(term + 1);
      const e = entries++;
      doc[e] = num;
      count[e] = 1;
      slot[e] = s;
      link(e, s);
    },
    /** The document appended last in (`term`, `field`) holds the term once more. */
    countAgain(term: number, field: number): void {
      const e = tail[term * width + field] as number;
      count[e] = (count[e] as number) + 1;
    },
    setLength(num: number, field: number, length: number): void {
      lengths[num * width + field] = length;
    },
    length: (num: number, field: number): number => lengths[num * width + field] as number,
    /** How many documents hold `term` in `field`. */
    held: (term: number, field: number): number => (held[term * width + field] as number) || 0,
    /** Each document holding `term` in `field`, with how often, in the order they were added. */
    forEachHolder(term: number, field: number, visit: (num: number, times: number) => void): void {
      for (let e = head[term * width + field] as number; e !== NONE; e = next[e] as number) {
        const num = doc[e] as number;
        if (num !== NONE) visit(num, count[e] as number);
      }
    },
    /** Forget document `num`: `dropped(term)` once for each (term, field) it held. */
    removeDoc(num: number, dropped: (term: number) => void): void {
      for (let e = start[num] as number; e < (end[num] as number); e++) {
        const s = slot[e] as number;
        held[s] = (held[s] as number) - 1;
        doc[e] = NONE;
        dead += 1;
        dropped((s / width) | 0);
      }
      end[num] = start[num] as number;
      freeNums.push(num);
    },
    /** Whether dead entries outnumber the living enough to compact. */
    wasteful: (): boolean => dead > MIN_WASTE && dead * 2 > entries,
    /**
     * Drop the dead entries, and number the live `terms` (null: dead) again from 0, telling
     * each its new number through `renumber`; the terms in their new order are returned.
     */
    compact<T>(terms: readonly (T | null)[], renumber: (term: T, id: number) => void): T[] {
      const live: T[] = [];
      const newId = new Int32Array(terms.length).fill(NONE);
      terms.forEach((term, id) => {
        if (term === null) return;
        newId[id] = live.length;
        renumber(term, live.length);
        live.push(term);
      });
      const size = Math.max(1024, (entries - dead) * 2);
      const [oldDoc, oldCount, oldSlot] = [doc, count, slot];
      doc = new Int32Array(size);
      count = new Int32Array(size);
      next = new Int32Array(size);
      slot = new Int32Array(size);
      head = new Int32Array(Math.max(256, live.length) * width).fill(NONE);
      tail = new Int32Array(head.length).fill(NONE);
      held = new Int32Array(head.length);
      let kept = 0;
      let previous = NONE;
      for (let e = 0; e < entries; e++) {
        const num = oldDoc[e] as number;
        if (num === NONE) continue;
        if (num !== previous) start[num] = kept;
        previous = num;
        const s = (newId[((oldSlot[e] as number) / width) | 0] as number) * width + ((oldSlot[e] as number) % width);
        doc[kept] = num;
        count[kept] = oldCount[e] as number;
        slot[kept] = s;
        link(kept, s);
        kept += 1;
        end[num] = kept;
      }
      entries = kept;
      dead = 0;
      return live;
    },
  };
}

/** `array` copied into one of `size` elements, the new ones `fill`. */
function grown(array: Int32Array, size: number, fill = 0): Int32Array {
  const out = new Int32Array(size);
  out.set(array);
  if (fill !== 0) out.fill(fill, array.length);
  return out;
}
