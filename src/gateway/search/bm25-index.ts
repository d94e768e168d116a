/**
 * A field-weighted BM25+ index over short documents (issue 24, ADR 038): the scoring of
 * minisearch (k 1.2, b 0.7, δ 0.5; a prefix match weighted 0.375 · len / (len + 0.3 · extra);
 * a document's score times the number of query terms it matched). minisearch kept its terms
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
 * @module
 */
import {
  appendPosting,
  closeDoc,
  compact,
  countAgain,
  createPostings,
  forEachHolder,
  heldBy,
  lengthOf,
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

/** A found document and its score. */
export type Bm25Hit = { readonly id: string; readonly score: number };

/** minisearch's tokenizer: runs of separators, line breaks and punctuation split words. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
/** The same for ASCII text (space, line breaks, the ASCII characters of `\p{P}`), without Unicode property lookups. */
const ASCII_SPACE_OR_PUNCTUATION = /[\n\r !-#%-*,-/:;?@[-\]_{}]+/;
const NON_ASCII = /[\u0080-\uffff]/;

/** The words of `text`, split as minisearch splits them; most tool text is ASCII, split the cheaper way. */
export const wordsOf = (text: string): string[] =>
  text.split(NON_ASCII.test(text) ? SPACE_OR_PUNCTUATION : ASCII_SPACE_OR_PUNCTUATION);
const K = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;

/**
 * A term of the index: its number in the postings, how many (document, field) pairs hold it,
 * and the field pass that last counted it.
 */
type Term = { readonly term: string; id: number; held: number; stamp: number; live: boolean };
/** A word as a document says it: its term (null: dropped), and the field pass that last counted it. */
type Word = { readonly said: string; term: Term | null; stamp: number };

/** An index: its state, read and written by the functions below. */
export type Bm25Index<F extends string> = {
  readonly options: Bm25Options<F>;
  readonly width: number;
  readonly boosts: number[];
  readonly postings: Postings;
  /** Each document's number in the postings. */
  readonly docs: Map<string, number>;
  readonly ids: (string | undefined)[];
  readonly index: Map<string, Term>;
  /** The terms by number; a dead term's place is null until the postings are compacted. */
  terms: (Term | null)[];
  /**
   * Every word the documents said, with its term: a catalog says the same few thousand words
   * over and over, and a word is then one table lookup, its term made once. A word whose term
   * left the index finds it dead and makes it again.
   */
  readonly words: WordTable<Word>;
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
    ids: [],
    index: new Map(),
    terms: [],
    words: createWordTable<Word>(),
    lengthSums: options.fields.map(() => 0),
    sorted: null,
    num: -1,
    field: 0,
    stamp: 0,
    length: 0,
  };
}

/** How many documents `ix` holds. */
export const documentCount = (ix: Bm25Index<string>): number => ix.docs.size;

/** Index `doc` under `id` (an `id` already there is replaced). */
export function addDocument<F extends string>(ix: Bm25Index<F>, id: string, doc: Readonly<Record<F, FieldText>>): void {
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
    const text = doc[ix.options.fields[field] as F];
    if (typeof text === 'string') scanWords(words, text, ix as Bm25Index<string>, makeWord, countWord);
    else for (const piece of text) scanWords(words, piece, ix as Bm25Index<string>, makeWord, countWord);
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
  removeDoc(ix.postings, num, (termId) => {
    const term = ix.terms[termId] as Term;
    term.held -= 1;
    if (term.held > 0) return;
    term.live = false;
    ix.terms[termId] = null;
    ix.index.delete(term.term);
    ix.sorted = null;
  });
  if (wasteful(ix.postings)) ix.terms = compact(ix.postings, ix.terms, (term, next) => (term.id = next));
}

/** The documents matching any term of `query`, best first. */
export function searchDocuments(ix: Bm25Index<string>, query: string): Bm25Hit[] {
  const results = new Map<number, Found>();
  if (ix.docs.size === 0) return [];
  const { processTerm, prefix } = ix.options;
  for (const word of wordsOf(query)) {
    const term = processTerm(word);
    if (!term) continue;
    const exact = ix.index.get(term);
    if (exact) score(ix, term, exact.id, 1, results);
    if (!prefix(term)) continue;
    for (const other of longer(ix, term)) {
      const weight = (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * (other.length - term.length));
      score(ix, term, (ix.index.get(other) as Term).id, weight, results);
    }
  }
  const hits: Bm25Hit[] = [];
  for (const [num, found] of results) hits.push({ id: ix.ids[num] as string, score: found.score * found.terms.size });
  return hits.sort((a, b) => b.score - a.score);
}

/** A word said for the first time: its term, made if new. */
function makeWord(ix: Bm25Index<string>, said: string): Word {
  return { said, term: termOf(ix, said), stamp: -1 };
}

/** Count one word of field `ix.field` of document `ix.num`. */
function countWord(ix: Bm25Index<string>, word: Word): void {
  // A field's length is its distinct words, as minisearch counts it; a word said again in
  // the field adds one to its term's count. Stamps tell "again" without a set per field.
  const stamp = ix.stamp;
  if (word.stamp !== stamp) {
    word.stamp = stamp;
    ix.length += 1;
  }
  if (word.term && !word.term.live) word.term = termOf(ix, word.said);
  const term = word.term;
  if (!term) return;
  if (term.stamp === stamp) {
    countAgain(ix.postings, term.id, ix.field);
    return;
  }
  term.stamp = stamp;
  term.held += 1;
  appendPosting(ix.postings, ix.num, term.id, ix.field);
}

function termOf(ix: Bm25Index<string>, word: string): Term | null {
  const made = ix.options.processTerm(word);
  if (!made) return null;
  let term = ix.index.get(made);
  if (!term) {
    term = { term: made, id: ix.terms.length, held: 0, stamp: -1, live: true };
    ix.terms.push(term);
    ix.index.set(made, term);
    ix.sorted = null;
  }
  return term;
}

/** Add what the postings give each document for term `id`, weighted, to `results`. */
function score(ix: Bm25Index<string>, source: string, id: number, weight: number, results: Map<number, Found>): void {
  const total = ix.docs.size;
  const { postings } = ix;
  for (let field = 0; field < ix.width; field++) {
    const held = heldBy(postings, id, field);
    if (held === 0) continue;
    const average = (ix.lengthSums[field] as number) / total;
    const idf = Math.log(1 + (total - held + 0.5) / (held + 0.5));
    const factor = weight * (ix.boosts[field] as number) * idf;
    forEachHolder(postings, id, field, (num, tf) => {
      const length = lengthOf(postings, num, field);
      const gain = factor * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * length) / average)));
      const found = results.get(num);
      if (found) {
        found.score += gain;
        found.terms.add(source);
      } else results.set(num, { score: gain, terms: new Set([source]) });
    });
  }
}

/** The index's terms that begin with `term` and are longer. */
function longer(ix: Bm25Index<string>, term: string): string[] {
  ix.sorted ??= [...ix.index.keys()].sort();
  const sorted = ix.sorted;
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as string) <= term) low = mid + 1;
    else high = mid;
  }
  const out: string[] = [];
  for (let i = low; i < sorted.length && (sorted[i] as string).startsWith(term); i++) out.push(sorted[i] as string);
  return out;
}

type Found = { score: number; readonly terms: Set<string> };
