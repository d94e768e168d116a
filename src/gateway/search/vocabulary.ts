/**
 * The words a search index has seen, found in a text without cutting it up (issue 24, ADR 038).
 * A catalog of 2,000 tools says about 100,000 words, most of them a few hundred times over
 * ("the", "repository", "owner"): splitting each text into strings and hashing each string
 * for a map lookup was two thirds of an index build, much of it garbage collection. Here a
 * text is scanned once by character code; two hashes of a word are made while it is scanned,
 * its entry found by the first and told from others by its length and the second, and a
 * string made only for a word never seen before. A word is a number (its place in the table,
 * in the order first seen): what an index keeps per word lives in its own typed arrays.
 *
 * Words are known by their hashes, not compared: 30 + 30 bits and the length. Two words that
 * met in all three would share one term; for a catalog's 10,000 words the odds are about
 * 10⁻¹⁰. Comparing the characters (`startsWith` at the word's place) cost more than all the
 * rest of the scan (ADR 038, "Revised"). Both hashes stay below 2³⁰, so V8 keeps them small
 * integers: a hash past that, met after the scan was compiled for small ones, threw the
 * compiled scan away ("not a Smi").
 *
 * Words are what {@link wordsOf} splits (runs of line breaks, Unicode separators and
 * punctuation end them), less the empty ones.
 * @module
 */
import { emptyArray } from './empty-array.js';
import { FIRST_SIZE } from './postings.js';

/**
 * A vocabulary's state. The scan is a module function over it, not a closure made for each
 * vocabulary: V8 compiles a function once for all its callers only when they call the same
 * function object, and an index's closures are new ones (ADR 038, "Revised a third time").
 */
export type WordTable = {
  // An open-addressed table of word numbers (+1; 0 is an empty place), found by the first
  // hash: a Map keyed by the hash cost a tenth of an index build in its lookups alone.
  table: Int32Array;
  mask: number;
  // Per word number: its first hash, its length, its second hash, the word.
  hashes: Int32Array;
  lengths: Int32Array;
  checks: Int32Array;
  readonly said: string[];
};

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

/** An empty word table, small at first (see `FIRST_SIZE`, postings.ts). */
export function createWordTable(): WordTable {
  return {
    table: new Int32Array(2 * FIRST_SIZE),
    mask: 2 * FIRST_SIZE - 1,
    hashes: new Int32Array(FIRST_SIZE),
    lengths: new Int32Array(FIRST_SIZE),
    checks: new Int32Array(FIRST_SIZE),
    said: emptyArray(),
  };
}

/**
 * `visit(context, word)` for each word of `text` in order, with its number: a word seen for
 * the first time gets the next number (`words.said.length - 1` when visited). Pass a module
 * function as `visit`.
 */
export function scanWords<C>(
  words: WordTable,
  text: string,
  context: C,
  visit: (context: C, word: number) => void,
): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    // Past what ends words (a code point past U+FFFF takes two code units)…
    const code = text.charCodeAt(i);
    if (code < 128) {
      if (ASCII_ENDS[code] === 1) {
        i += 1;
        continue;
      }
    } else {
      const point = text.codePointAt(i) as number;
      if (endsWord(point)) {
        i += point > 0xffff ? 2 : 1;
        continue;
      }
    }
    // …then to the end of the word, its two hashes made as it goes: one loop per word, not
    // one test per character of whether a word is open. Each hash is kept to 30 bits: FNV-1a,
    // and a multiply-rotate with other constants, over the code units.
    const start = i;
    let hash = 0x011c9dc5;
    let check = 0;
    while (i < length) {
      const unit = text.charCodeAt(i);
      if (unit < 128 ? ASCII_ENDS[unit] === 1 : endsWord(text.codePointAt(i) as number)) break;
      hash = Math.imul(hash ^ unit, 16777619) & 0x3fffffff;
      check = (Math.imul((check << 5) | (check >>> 25), 0x27d4eb2d) ^ unit) & 0x3fffffff;
      i += 1;
    }
    visit(context, wordAt(words, text, start, i, hash, check));
  }
}

/** The number of the word of `text` at [start, end), a new one if the word is new. */
function wordAt(words: WordTable, text: string, start: number, end: number, hash: number, check: number): number {
  const length = end - start;
  let at = hash & words.mask;
  for (let found = words.table[at] as number; found !== 0; found = words.table[at] as number) {
    const word = found - 1;
    if (words.hashes[word] === hash && words.lengths[word] === length && words.checks[word] === check) return word;
    at = (at + 1) & words.mask;
  }
  const word = words.said.length;
  if (word >= words.hashes.length) {
    words.hashes = widened(words.hashes);
    words.lengths = widened(words.lengths);
    words.checks = widened(words.checks);
  }
  words.hashes[word] = hash;
  words.lengths[word] = length;
  words.checks[word] = check;
  words.said.push(text.slice(start, end));
  words.table[at] = word + 1;
  // At most half the places taken, so a lookup meets few others.
  if (words.said.length * 2 > words.table.length) grow(words);
  return word;
}

/** Twice the places, the words put again where their hashes say. */
function grow(words: WordTable): void {
  const table = new Int32Array(words.table.length * 2);
  const mask = table.length - 1;
  for (let word = 0; word < words.said.length; word++) {
    let at = (words.hashes[word] as number) & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = word + 1;
  }
  words.table = table;
  words.mask = mask;
}

/** `array` copied into one twice as long. */
function widened(array: Int32Array): Int32Array {
  const out = new Int32Array(array.length * 2);
  out.set(array);
  return out;
}
