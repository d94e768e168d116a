/**
 * A field-weighted BM25+ index over short documents (issue 24, ADR 038): the scoring of
 * minisearch (k 1.2, b 0.7, δ 0.5; a prefix match weighted 0.375 · len / (len + 0.3 · extra);
 * a document's score times the number of query terms it matched), asked through
 * `searchDocuments` (`search-documents.ts`); this module builds it. minisearch kept its terms
 * in a radix tree that each added word walks and splits: indexing 2,000 tools took
 * 160–400 ms there, against the 50 ms the issue allows. Here a text's words are found by a
 * vocabulary that cuts no strings (`vocabulary.ts`), a word counts into its term's postings
 * through stamps rather than a set per field, and the few prefix lookups a query makes
 * binary-search a sorted list of the terms, sorted again only after the index changed.
 *
 * The postings are not arrays per term: every (document, field, term) is one entry of a few
 * shared typed arrays (`postings.ts`), chained per (term, field). An index is then a few
 * large buffers the garbage collector never copies, instead of thousands of small arrays
 * that each young-generation collection copied while the index was built. The index is state
 * and module functions, not closures made for each index: every index then runs the same
 * compiled code (with closures, each new index had V8 compile the scan again, ADR 038).
 *
 * Words and terms are numbers, what is kept of each in typed arrays, and the state objects
 * (index, postings, vocabulary) keep their hidden classes for the module's life (see
 * {@link SHAPES}): compiled code depends on the classes of the objects it reads, and a class
 * that changes or dies throws that code away (ADR 038, "Revised a fourth time").
 * @module
 */
import { emptyArray } from './empty-array.js';
import {
  appendPosting,
  closeDoc,
  compact,
  countAgain,
  createPostings,
  FIRST_SIZE,
  grown,
  lengthOf,
  NONE,
  openDoc,
  type Postings,
  removeDoc,
  setLength,
  wasteful,
} from './postings.js';
import { createWordTable, scanWords, type WordTable } from './vocabulary.js';

/** A field's text: one string, or several read one after the other (no string is joined to index them). */
export type FieldText = string | readonly string[];

/** How text becomes terms, and how fields weigh. */
export type Bm25Options<F extends string> = {
  readonly fields: readonly F[];
  readonly boost: Readonly<Record<F, number>>;
  /** The term a word is indexed and asked as; null drops it. */
  readonly processTerm: (word: string) => string | null;
  /** Whether a query term also matches the longer terms it begins. */
  readonly prefix: (term: string) => boolean;
};

/** A word's term is to be made again: the term it had left the index, and the terms were numbered again. */
const REMADE = -2;

/** An index: its state, read and written by the functions below. */
export type Bm25Index<F extends string> = {
  readonly options: Bm25Options<F>;
  readonly width: number;
  readonly boosts: number[];
  readonly postings: Postings;
  /** Each document's number in the postings. */
  readonly docs: Map<string, number>;
  readonly ids: (string | undefined)[];
  /** Each live term's number. */
  readonly index: Map<string, number>;
  /** The terms by number; a dead term's place is null until the postings are compacted. */
  terms: (string | null)[];
  // Per term number: how many (document, field) pairs hold it, and the field pass that last counted it.
  held: Int32Array;
  termStamps: Int32Array;
  /**
   * Every word the documents said: a catalog says the same few thousand words over and over,
   * and a word is then one table lookup, its term made once.
   */
  readonly words: WordTable;
  // Per word number: its term (NONE: dropped; REMADE), and the field pass that last counted it;
  // `learned` words have a term.
  wordTerms: Int32Array;
  wordStamps: Int32Array;
  learned: number;
  readonly lengthSums: number[];
  sorted: string[] | null;
  // What the word being visited counts for: set per field by `addDocument`, read by `countWord`.
  num: number;
  field: number;
  stamp: number;
  length: number;
};

/** An empty index. */
export function createBm25Index<F extends string>(options: Bm25Options<F>): Bm25Index<F> {
  const width = options.fields.length;
  return {
    options,
    width,
    boosts: options.fields.map((field) => options.boost[field] || 1),
    postings: createPostings(width),
    docs: new Map(),
    ids: emptyArray(),
    index: new Map(),
    terms: emptyArray(),
    held: new Int32Array(FIRST_SIZE),
    termStamps: new Int32Array(FIRST_SIZE),
    words: createWordTable(),
    wordTerms: new Int32Array(FIRST_SIZE),
    wordStamps: new Int32Array(FIRST_SIZE),
    learned: 0,
    lengthSums: options.fields.map(() => 0),
    sorted: null,
    num: -1,
    field: 0,
    stamp: 0,
    length: 0,
  };
}

/**
 * An empty index kept while the module is loaded, never written. V8 gives the objects one
 * literal makes one hidden class only while one of them lives: when a garbage collection finds
 * no index alive (the last one replaced, or the bench's forced collection between builds), the
 * classes of the index, its postings and its vocabulary die with it, the next index gets new
 * ones, and the compiled scan, counting and postings are thrown away ("weak objects") and
 * compiled again, then thrown away once more as the new classes' fields change ("code
 * dependencies"): about 50 deoptimizations in a bench run, its median build 40–100 ms instead
 * of 20–30. Kept alive, the classes are the same for every index.
 */
export const SHAPES: Bm25Index<never> = createBm25Index<never>({
  fields: [],
  boost: {},
  processTerm: () => null,
  prefix: () => false,
});

/** How many documents `ix` holds. */
export const documentCount = (ix: Bm25Index<string>): number => ix.docs.size;

/**
 * Index the texts of a document under `id`, one per field in the order of `options.fields`
 * (an `id` already there is replaced). An array, not an object keyed by field: an object made
 * per document is one more hidden class that dies between builds (see {@link SHAPES}).
 */
export function addDocument(ix: Bm25Index<string>, id: string, doc: readonly FieldText[]): void {
  removeDocument(ix, id);
  const { postings, lengthSums, words } = ix;
  const num = openDoc(postings);
  ix.num = num;
  ix.docs.set(id, num);
  ix.ids[num] = id;
  for (let field = 0; field < ix.width; field++) {
    ix.field = field;
    ix.stamp += 1;
    ix.length = 0;
    const text = doc[field] as FieldText;
    // One call of the scan, not one for a string and one for pieces: V8 would compile the
    // scan into this function once per call site.
    const pieces = typeof text === 'string' ? 1 : text.length;
    for (let piece = 0; piece < pieces; piece++)
      scanWords(words, typeof text === 'string' ? text : (text[piece] as string), ix, countWord);
    setLength(postings, num, field, ix.length);
    lengthSums[field] = (lengthSums[field] as number) + ix.length;
  }
  closeDoc(postings, num);
}

export function removeDocument(ix: Bm25Index<string>, id: string): void {
  const num = ix.docs.get(id);
  if (num === undefined) return;
  ix.docs.delete(id);
  ix.ids[num] = undefined;
  for (let field = 0; field < ix.width; field++)
    ix.lengthSums[field] = (ix.lengthSums[field] as number) - lengthOf(ix.postings, num, field);
  removeDoc(ix.postings, num, ix, dropTerm);
  if (wasteful(ix.postings)) compactTerms(ix);
}

/** Document being removed held `term` in one field less. */
function dropTerm(ix: Bm25Index<string>, term: number): void {
  ix.held[term] = (ix.held[term] as number) - 1;
  if ((ix.held[term] as number) > 0) return;
  ix.index.delete(ix.terms[term] as string);
  ix.terms[term] = null;
  ix.sorted = null;
}

/** Number the live terms again from 0, in the postings and in the words that have them. */
function compactTerms(ix: Bm25Index<string>): void {
  const count = ix.terms.length;
  const newId = new Int32Array(count);
  const live = emptyArray<string>();
  for (let term = 0; term < count; term++) {
    const text = ix.terms[term];
    if (text === null || text === undefined) {
      newId[term] = NONE;
      continue;
    }
    const next = live.length;
    newId[term] = next;
    ix.held[next] = ix.held[term] as number;
    ix.termStamps[next] = ix.termStamps[term] as number;
    ix.index.set(text, next);
    live.push(text);
  }
  ix.held.fill(0, live.length, count);
  ix.termStamps.fill(0, live.length, count);
  ix.terms = live;
  for (let word = 0; word < ix.learned; word++) {
    const term = ix.wordTerms[word] as number;
    if (term >= 0) ix.wordTerms[word] = newId[term] === NONE ? REMADE : (newId[term] as number);
  }
  compact(ix.postings, newId, live.length);
}

/** Count word number `word` in field `ix.field` of document `ix.num`. */
function countWord(ix: Bm25Index<string>, word: number): void {
  if (word >= ix.learned) learnWord(ix, word);
  // A field's length is its distinct words, as minisearch counts it; a word said again in
  // the field adds one to its term's count. Stamps tell "again" without a set per field.
  const stamp = ix.stamp;
  if (ix.wordStamps[word] !== stamp) {
    ix.wordStamps[word] = stamp;
    ix.length += 1;
  }
  let term = ix.wordTerms[word] as number;
  if (term === NONE) return;
  // The word's term left the index (all that held it removed): it is made again.
  if (term === REMADE || ix.terms[term] === null) {
    term = termOf(ix, ix.words.said[word] as string);
    ix.wordTerms[word] = term;
  }
  if (ix.termStamps[term] === stamp) {
    countAgain(ix.postings, term, ix.field);
    return;
  }
  ix.termStamps[term] = stamp;
  ix.held[term] = (ix.held[term] as number) + 1;
  appendPosting(ix.postings, ix.num, term, ix.field);
}

/** A word seen for the first time (numbers come in order): its term. */
function learnWord(ix: Bm25Index<string>, word: number): void {
  if (word >= ix.wordTerms.length) {
    ix.wordTerms = grown(ix.wordTerms, ix.wordTerms.length * 2);
    ix.wordStamps = grown(ix.wordStamps, ix.wordStamps.length * 2);
  }
  ix.wordTerms[word] = termOf(ix, ix.words.said[word] as string);
  ix.learned = word + 1;
}

/** The number of the term `word` is indexed as, the term made if new; NONE if the word is dropped. */
function termOf(ix: Bm25Index<string>, word: string): number {
  const made = ix.options.processTerm(word);
  if (!made) return NONE;
  let term = ix.index.get(made);
  if (term === undefined) {
    term = ix.terms.length;
    if (term >= ix.held.length) {
      ix.held = grown(ix.held, ix.held.length * 2);
      ix.termStamps = grown(ix.termStamps, ix.termStamps.length * 2);
    }
    ix.terms.push(made);
    ix.index.set(made, term);
    ix.sorted = null;
  }
  return term;
}
