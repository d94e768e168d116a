/**
 * A field-weighted BM25+ index over short documents (issue 24, ADR 038): the scoring of
 * minisearch (k 1.2, b 0.7, δ 0.5; a prefix match weighted 0.375 · len / (len + 0.3 · extra);
 * a document's score times the number of query terms it matched), on plain maps. minisearch
 * kept its terms in a radix tree that each added word walks and splits: indexing 2,000 tools
 * took 160–400 ms there, against the 50 ms the issue allows. Here a word is one map update,
 * and the few prefix lookups a query makes binary-search a sorted list of the terms, sorted
 * again only after the index changed.
 * @module
 */

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

/** A document: its number, its fields' lengths, and the (field, term) pairs it holds, side by side. */
type Entry = { readonly num: number; readonly lengths: number[]; readonly fields: number[]; readonly terms: string[] };
/** The documents holding a term in one field, in the order they were added, and how often each. */
type Holders = { readonly nums: number[]; readonly counts: number[] };
/** Per field, who holds the term. */
type Postings = (Holders | undefined)[];

/** An empty index. */
export function createBm25Index<F extends string>(options: Bm25Options<F>): Bm25Index<F> {
  const { fields, processTerm } = options;
  const boosts = fields.map((field) => options.boost[field] || 1);
  const docs = new Map<string, Entry>();
  /** Each document's field lengths, by its number. */
  const lengths = new Map<number, number[]>();
  const ids = new Map<number, string>();
  const index = new Map<string, Postings>();
  const lengthSums = fields.map(() => 0);
  const distinct = new Map<string, number>();
  let nextNum = 0;
  let sorted: string[] | null = null;

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
      const term = entry.terms[i] as string;
      const postings = index.get(term) as Postings;
      const holders = postings[field] as Holders;
      const at = holders.nums.indexOf(entry.num);
      holders.nums.splice(at, 1);
      holders.counts.splice(at, 1);
      if (holders.nums.length === 0) postings[field] = undefined;
      if (postings.every((p) => p === undefined)) {
        index.delete(term);
        sorted = null;
      }
    }
  };

  const add = (id: string, doc: Readonly<Record<F, string>>): void => {
    remove(id);
    const entry: Entry = { num: nextNum++, lengths: [], fields: [], terms: [] };
    docs.set(id, entry);
    ids.set(entry.num, id);
    lengths.set(entry.num, entry.lengths);
    for (let field = 0; field < fields.length; field++) {
      // Each distinct word once, with how often it came: a field's length is its distinct
      // words, as minisearch counts it, and a word said again costs one count, not a lookup.
      distinct.clear();
      for (const word of wordsOf(doc[fields[field] as F])) distinct.set(word, (distinct.get(word) ?? 0) + 1);
      const length = distinct.size;
      entry.lengths[field] = length;
      lengthSums[field] = (lengthSums[field] as number) + length;
      for (const [word, times] of distinct) {
        const term = processTerm(word);
        if (!term) continue;
        let postings = index.get(term);
        if (!postings) {
          postings = [];
          index.set(term, postings);
          sorted = null;
        }
        let holders = postings[field];
        if (!holders) {
          holders = { nums: [], counts: [] };
          postings[field] = holders;
        }
        // A document's words come together: if it holds the term already (two words, one term), it is the last one.
        const last = holders.nums.length - 1;
        if (last >= 0 && holders.nums[last] === entry.num)
          holders.counts[last] = (holders.counts[last] as number) + times;
        else {
          holders.nums.push(entry.num);
          holders.counts.push(times);
          entry.fields.push(field);
          entry.terms.push(term);
        }
      }
    }
  };

  /** Add what `postings` gives each document for a query term, weighted, to `results`. */
  const score = (source: string, postings: Postings, weight: number, results: Map<number, Found>): void => {
    const total = docs.size;
    for (let field = 0; field < fields.length; field++) {
      const holders = postings[field];
      if (!holders) continue;
      const { nums, counts } = holders;
      const average = (lengthSums[field] as number) / total;
      const idf = Math.log(1 + (total - nums.length + 0.5) / (nums.length + 0.5));
      const factor = weight * (boosts[field] as number) * idf;
      for (let i = 0; i < nums.length; i++) {
        const num = nums[i] as number;
        const tf = counts[i] as number;
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
        if (exact) score(term, exact, 1, results);
        if (!options.prefix(term)) continue;
        for (const other of longer(term)) {
          const weight = (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * (other.length - term.length));
          score(term, index.get(other) as Postings, weight, results);
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
