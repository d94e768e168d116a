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
 * that each young-generation collection copied while the index was built.
 * @module
 */
import { createPostings } from './postings.js';
import { createVocabulary } from './vocabulary.js';

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

/** The index. */
export type Bm25Index<F extends string> = {
  /** Index `doc` under `id` (an `id` already there is replaced). */
  add(id: string, doc: Readonly<Record<F, FieldText>>): void;
  remove(id: string): void;
  /** The documents matching any term of `query`, best first. */
  search(query: string): Bm25Hit[];
  readonly size: number;
};

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

/** An empty index. */
export function createBm25Index<F extends string>(options: Bm25Options<F>): Bm25Index<F> {
  const { fields, processTerm } = options;
  const width = fields.length;
  const boosts = fields.map((field) => options.boost[field] || 1);
  const postings = createPostings(width);
  /** Each document's number in the postings. */
  const docs = new Map<string, number>();
  const ids: (string | undefined)[] = [];
  const index = new Map<string, Term>();
  /** The terms by number; a dead term's place is null until the postings are compacted. */
  let terms: (Term | null)[] = [];
  /**
   * Every word the documents said, with its term: a catalog says the same few thousand words
   * over and over, and a word is then one map lookup, its term made once. A word whose term
   * left the index finds it dead and makes it again.
   */
  const words = createVocabulary<Word>((said) => ({ said, term: termOf(said), stamp: -1 }));
  const lengthSums = fields.map(() => 0);
  let sorted: string[] | null = null;

  const termOf = (word: string): Term | null => {
    const made = processTerm(word);
    if (!made) return null;
    let term = index.get(made);
    if (!term) {
      term = { term: made, id: terms.length, held: 0, stamp: -1, live: true };
      terms.push(term);
      index.set(made, term);
      sorted = null;
    }
    return term;
  };

  const remove = (id: string): void => {
    const num = docs.get(id);
    if (num === undefined) return;
    docs.delete(id);
    ids[num] = undefined;
    for (let field = 0; field < width; field++)
      lengthSums[field] = (lengthSums[field] as number) - postings.length(num, field);
    postings.removeDoc(num, (termId) => {
      const term = terms[termId] as Term;
      term.held -= 1;
      if (term.held > 0) return;
      term.live = false;
      terms[termId] = null;
      index.delete(term.term);
      sorted = null;
    });
    if (postings.wasteful()) terms = postings.compact(terms, (term, id) => (term.id = id));
  };

  // What the word being visited counts for: set per field by `add`, read by `count`.
  let num = -1;
  let field = 0;
  let stamp = 0;
  let length = 0;

  /** Count one word of field `field` of document `num`. */
  const count = (word: Word): void => {
    // A field's length is its distinct words, as minisearch counts it; a word said again in
    // the field adds one to its term's count. Stamps tell "again" without a set per field.
    if (word.stamp !== stamp) {
      word.stamp = stamp;
      length += 1;
    }
    if (word.term && !word.term.live) word.term = termOf(word.said);
    const term = word.term;
    if (!term) return;
    if (term.stamp === stamp) {
      postings.countAgain(term.id, field);
      return;
    }
    term.stamp = stamp;
    term.held += 1;
    postings.append(num, term.id, field);
  };

  const add = (id: string, doc: Readonly<Record<F, FieldText>>): void => {
    remove(id);
    num = postings.openDoc();
    docs.set(id, num);
    ids[num] = id;
    for (field = 0; field < width; field++) {
      stamp += 1;
      length = 0;
      const text = doc[fields[field] as F];
      if (typeof text === 'string') words.forEachWord(text, count);
      else for (const piece of text) words.forEachWord(piece, count);
      postings.setLength(num, field, length);
      lengthSums[field] = (lengthSums[field] as number) + length;
    }
    postings.closeDoc(num);
  };

  /** Add what the postings give each document for term `id`, weighted, to `results`. */
  const score = (source: string, id: number, weight: number, results: Map<number, Found>): void => {
    const total = docs.size;
    for (let field = 0; field < width; field++) {
      const held = postings.held(id, field);
      if (held === 0) continue;
      const average = (lengthSums[field] as number) / total;
      const idf = Math.log(1 + (total - held + 0.5) / (held + 0.5));
      const factor = weight * (boosts[field] as number) * idf;
      postings.forEachHolder(id, field, (num, tf) => {
        const length = postings.length(num, field);
        const gain = factor * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * length) / average)));
        const found = results.get(num);
        if (found) {
          found.score += gain;
          found.terms.add(source);
        } else results.set(num, { score: gain, terms: new Set([source]) });
      });
    }
  };

  /** The index's terms that begin with `term` and are longer. */
  const longer = (term: string): string[] => {
    sorted ??= [...index.keys()].sort();
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
  };

  return {
    add,
    remove,
    get size() {
      return docs.size;
    },
    search(query) {
      const results = new Map<number, Found>();
      if (docs.size === 0) return [];
      for (const word of wordsOf(query)) {
        const term = processTerm(word);
        if (!term) continue;
        const exact = index.get(term);
        if (exact) score(term, exact.id, 1, results);
        if (!options.prefix(term)) continue;
        for (const other of longer(term)) {
          const weight = (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * (other.length - term.length));
          score(term, (index.get(other) as Term).id, weight, results);
        }
      }
      const hits: Bm25Hit[] = [];
      for (const [num, found] of results) hits.push({ id: ids[num] as string, score: found.score * found.terms.size });
      return hits.sort((a, b) => b.score - a.score);
    },
  };
}

type Found = { score: number; readonly terms: Set<string> };
