/**
 * A query against a BM25+ index (issue 24, ADR 038), scored as minisearch scores: BM25+ per
 * field (k 1.2, b 0.7, δ 0.5) times the field's boost, a prefix match weighted
 * 0.375 · len / (len + 0.3 · extra), and a document's score times the number of query terms
 * it matched. Queries are few and short: this side splits the query into strings and keeps
 * a map per query; the build side (`bm25-index.ts`) is the one that counts every allocation.
 * @module
 */
import type { Bm25Index } from './bm25-index.js';
import { forEachHolder, heldBy, lengthOf } from './postings.js';

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

/** The documents matching any term of `query`, best first. */
export function searchDocuments(ix: Bm25Index<string>, query: string): Bm25Hit[] {
  const results = new Map<number, Found>();
  if (ix.docs.size === 0) return [];
  const { processTerm, prefix } = ix.options;
  for (const word of wordsOf(query)) {
    const term = processTerm(word);
    if (!term) continue;
    const exact = ix.index.get(term);
    if (exact !== undefined) score(ix, term, exact, 1, results);
    if (!prefix(term)) continue;
    for (const other of longer(ix, term)) {
      const weight = (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * (other.length - term.length));
      score(ix, term, ix.index.get(other) as number, weight, results);
    }
  }
  const hits: Bm25Hit[] = [];
  for (const [num, found] of results) hits.push({ id: ix.ids[num] as string, score: found.score * found.terms.size });
  return hits.sort((a, b) => b.score - a.score);
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
