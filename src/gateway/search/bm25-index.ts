/**
 * A field-weighted BM25+ index over short documents (issue 24, ADR 038): the scoring of
 * minisearch (k 1.2, b 0.7, δ 0.5; a prefix match weighted 0.375 · len / (len + 0.3 · extra);
 * a document's score times the number of query terms it matched), on plain maps. minisearch
 * kept its terms in a radix tree that each added word walks and splits: indexing 2,000 tools
 * took 160–400 ms there, against the 50 ms the issue allows. Here a text's words are found
 * by a vocabulary that cuts no strings (`vocabulary.ts`), a word counts into its term's
 * postings through stamps rather than a set per field, and the few prefix lookups a query
 * makes binary-search a sorted list of the terms, sorted again only after the index changed.
 * @module
 */
import { createVocabulary } from './vocabulary.js';

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
  add(id: string, doc: Readonly<Record<F, string>>): void;
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
 * The documents holding a term in one field, in the order they were added, each followed by
 * how often it holds the term: `[num, count, num, count, …]`, one array, not two.
 */
type Holders = number[];
/** Per field, who holds the term. */
type Postings = (Holders | undefined)[];
/** A term of the index: who holds it, and the (document, field) that last counted it. */
type Term = { readonly term: string; readonly postings: Postings; stamp: number; live: boolean };
/** A word as a document says it: its term (null: dropped), and the (document, field) that last counted it. */
type Word = { readonly said: string; term: Term | null; stamp: number };
/** A document: its number, its fields' lengths, and the (field, term) pairs it holds, side by side. */
type Entry = { readonly num: number; readonly lengths: number[]; readonly fields: number[]; readonly terms: Term[] };

/** An empty index. */
export function createBm25Index<F extends string>(options: Bm25Options<F>): Bm25Index<F> {
  const { fields, processTerm } = options;
  const boosts = fields.map((field) => options.boost[field] || 1);
  const docs = new Map<string, Entry>();
  /** Each document's field lengths, by its number. */
  const lengths = new Map<number, number[]>();
  const ids = new Map<number, string>();
  const index = new Map<string, Term>();
  /**
   * Every word the documents said, with its term: a catalog says the same few thousand words
   * over and over, and a word is then one map lookup, its term made once. A word whose term
   * left the index finds it dead and makes it again.
   */
  const words = createVocabulary<Word>((said) => ({ said, term: termOf(said), stamp: -1 }));
  const lengthSums = fields.map(() => 0);
  let nextNum = 0;
  let sorted: string[] | null = null;

  const termOf = (word: string): Term | null => {
    const made = processTerm(word);
    if (!made) return null;
    let term = index.get(made);
    if (!term) {
      term = { term: made, postings: [], stamp: -1, live: true };
      index.set(made, term);
      sorted = null;
    }
    return term;
  };

  const remove = (id: string): void => {
    const entry = docs.get(id);
    if (!entry) return;
    docs.delete(id);
    ids.delete(entry.num);
    lengths.delete(entry.num);
    entry.lengths.forEach((length, field) => {
      lengthSums[field] = (lengthSums[field] as number) - length;
    });
    for (let i = 0; i < entry.terms.length; i++) {
      const field = entry.fields[i] as number;
      const term = entry.terms[i] as Term;
      const { postings } = term;
      const holders = postings[field] as Holders;
      let at = 0;
      while (holders[at] !== entry.num) at += 2;
      holders.splice(at, 2);
      if (holders.length === 0) postings[field] = undefined;
      if (term.live && postings.every((p) => p === undefined)) {
        term.live = false;
        index.delete(term.term);
        sorted = null;
      }
    }
  };

  // What the word being visited counts for: set per field by `add`, read by `count`.
  let at: Entry = { num: -1, lengths: [], fields: [], terms: [] };
  let field = 0;
  let stamp = -1;
  let length = 0;

  /** Count one word of field `field` of document `at`. */
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
      const holders = term.postings[field] as Holders;
      holders[holders.length - 1] = (holders[holders.length - 1] as number) + 1;
      return;
    }
    term.stamp = stamp;
    let holders = term.postings[field];
    if (!holders) {
      holders = [];
      term.postings[field] = holders;
    }
    holders.push(at.num, 1);
    at.fields.push(field);
    at.terms.push(term);
  };

  const add = (id: string, doc: Readonly<Record<F, string>>): void => {
    remove(id);
    const num = nextNum++;
    at = { num, lengths: [], fields: [], terms: [] };
    docs.set(id, at);
    ids.set(num, id);
    lengths.set(num, at.lengths);
    for (field = 0; field < fields.length; field++) {
      stamp = num * fields.length + field;
      length = 0;
      words.forEachWord(doc[fields[field] as F], count);
      at.lengths[field] = length;
      lengthSums[field] = (lengthSums[field] as number) + length;
    }
  };

  /** Add what `postings` gives each document for a query term, weighted, to `results`. */
  const score = (source: string, postings: Postings, weight: number, results: Map<number, Found>): void => {
    const total = docs.size;
    for (let field = 0; field < fields.length; field++) {
      const holders = postings[field];
      if (!holders) continue;
      const held = holders.length / 2;
      const average = (lengthSums[field] as number) / total;
      const idf = Math.log(1 + (total - held + 0.5) / (held + 0.5));
      const factor = weight * (boosts[field] as number) * idf;
      for (let i = 0; i < holders.length; i += 2) {
        const num = holders[i] as number;
        const tf = holders[i + 1] as number;
        const length = (lengths.get(num) as number[])[field] as number;
        const gain = factor * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * length) / average)));
        const found = results.get(num);
        if (found) {
          found.score += gain;
          found.terms.add(source);
        } else results.set(num, { score: gain, terms: new Set([source]) });
      }
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
        if (exact) score(term, exact.postings, 1, results);
        if (!options.prefix(term)) continue;
        for (const other of longer(term)) {
          const weight = (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * (other.length - term.length));
          score(term, (index.get(other) as Term).postings, weight, results);
        }
      }
      const hits: Bm25Hit[] = [];
      for (const [num, found] of results)
        hits.push({ id: ids.get(num) as string, score: found.score * found.terms.size });
      return hits.sort((a, b) => b.score - a.score);
    },
  };
}

type Found = { score: number; readonly terms: Set<string> };
