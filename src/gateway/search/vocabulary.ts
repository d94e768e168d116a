/**
 * The words a search index has seen, found in a text without cutting it up (issue 24, ADR 038).
 * A catalog of 2,000 tools says about 120,000 words, most of them a few hundred times over
 * ("the", "repository", "owner"): splitting each text into strings and hashing each string
 * for a map lookup was two thirds of an index build, much of it garbage collection. Here a
 * text is scanned once by character code; two hashes of a word are made while it is scanned,
 * its entry found by the first and told from others by its length and the second, and a
 * string made only for a word never seen before.
 *
 * Words are known by their hashes, not compared: 30 + 32 bits and the length. Two words that
 * met in all three would share one term; for a catalog's 10,000 words the odds are about
 * 10⁻¹¹. Comparing the characters (`startsWith` at the word's place) cost more than all the
 * rest of the scan (ADR 038, "Revised").
 *
 * Words are what {@link wordsOf} splits (runs of line breaks, Unicode separators and
 * punctuation end them), less the empty ones.
 * @module
 */

/** The words seen, each with the value made for it once. */
export type Vocabulary<V> = {
  /** `visit` each word of `text` in order, with its value (`make(word)` the first time the word is seen). */
  forEachWord(text: string, visit: (value: V) => void): void;
  readonly size: number;
};

/** One word and its value; words whose hashes meet are chained. */
type Slot<V> = { readonly length: number; readonly check: number; readonly value: V; next: Slot<V> | undefined };

const ENDS_WORD = /[\n\r\p{Z}\p{P}]/u;
/** For each ASCII code, whether it ends a word. */
const ASCII_ENDS = Uint8Array.from({ length: 128 }, (_, code) => (ENDS_WORD.test(String.fromCharCode(code)) ? 1 : 0));
/** The same for code points past ASCII, learnt as they come (a catalog's few accents and dashes). */
const otherEnds = new Map<number, boolean>();

function endsWord(point: number): boolean {
  let ends = otherEnds.get(point);
  if (ends === undefined) {
    ends = ENDS_WORD.test(String.fromCodePoint(point));
    if (otherEnds.size < 4096) otherEnds.set(point, ends);
  }
  return ends;
}

/** An empty vocabulary whose values `make` makes. */
export function createVocabulary<V>(make: (word: string) => V): Vocabulary<V> {
  /** Keyed by a 30-bit hash: a small integer key, which V8 keeps unboxed. */
  const slots = new Map<number, Slot<V>>();
  let size = 0;

  const wordAt = (text: string, start: number, end: number, hash: number, check: number): V => {
    const length = end - start;
    const first = slots.get(hash);
    for (let slot = first; slot !== undefined; slot = slot.next)
      if (slot.length === length && slot.check === check) return slot.value;
    const word = text.slice(start, end);
    const slot: Slot<V> = { length, check, value: make(word), next: first };
    slots.set(hash, slot);
    size += 1;
    return slot.value;
  };

  return {
    get size() {
      return size;
    },
    forEachWord(text, visit) {
      let start = -1;
      let hash = 0;
      let check = 0;
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        let width = 1;
        let ends: boolean;
        if (code < 128) ends = ASCII_ENDS[code] === 1;
        else {
          const point = text.codePointAt(i) as number;
          if (point > 0xffff) width = 2;
          ends = endsWord(point);
        }
        if (ends) {
          if (start >= 0) visit(wordAt(text, start, i, hash & 0x3fffffff, check));
          start = -1;
        } else {
          if (start < 0) {
            start = i;
            hash = 0x811c9dc5;
            check = 0;
          }
          // Two hashes over the code units: FNV-1a, and a multiply-rotate with other constants.
          hash = Math.imul(hash ^ code, 16777619);
          check = Math.imul((check << 5) | (check >>> 27), 0x27d4eb2d) ^ code;
          if (width === 2) {
            const low = text.charCodeAt(i + 1);
            hash = Math.imul(hash ^ low, 16777619);
            check = Math.imul((check << 5) | (check >>> 27), 0x27d4eb2d) ^ low;
          }
        }
        i += width - 1;
      }
      if (start >= 0) visit(wordAt(text, start, text.length, hash & 0x3fffffff, check));
    },
  };
}
