import { describe, expect, it } from 'vitest';
import { addDocument, createBm25Index, documentCount, removeDocument } from '../../../src/gateway/search/bm25-index.js';
import { searchDocuments, wordsOf } from '../../../src/gateway/search/search-documents.js';

const index = () =>
  createBm25Index<'name' | 'text'>({
    fields: ['name', 'text'],
    boost: { name: 3, text: 1 },
    processTerm: (word) => (word.length > 0 ? word.toLowerCase() : null),
    prefix: (term) => term.length >= 4,
  });

describe('wordsOf', () => {
  it('splits every text as the Unicode separator-or-punctuation pattern does, ASCII or not', () => {
    const unicode = /[\n\r\p{Z}\p{P}]+/u;
    const every = Array.from({ length: 0x3100 }, (_, code) => `a${String.fromCharCode(code)}b`);
    for (const text of [...every, every.join(''), 'read\tthe file, then (maybe) write it: done.']) {
      expect(wordsOf(text)).toEqual(text.split(unicode));
    }
  });
});

describe('createBm25Index', () => {
  it('ranks a match in a heavier field first, and more matched terms above fewer', () => {
    const ix = index();
    addDocument(ix, 'a', ['weather', 'a forecast for a city']);
    addDocument(ix, 'b', ['news', 'weather in the headlines']);
    addDocument(ix, 'c', ['weather report', 'forecast and weather maps']);
    expect(searchDocuments(ix, 'weather').map((hit) => hit.id)).toEqual(['c', 'a', 'b']);
    expect(searchDocuments(ix, 'weather forecast')[0]?.id).toBe('c');
  });

  it('matches longer terms by prefix, below an exact match', () => {
    const ix = index();
    addDocument(ix, 'x', ['deploy', '']);
    addDocument(ix, 'y', ['deployment', '']);
    const hits = searchDocuments(ix, 'deploy');
    expect(hits.map((hit) => hit.id)).toEqual(['x', 'y']);
    expect(hits[1]?.score).toBeLessThan(hits[0]?.score as number);
    // Too short a term matches only itself.
    addDocument(ix, 'z', ['log', 'logging']);
    expect(searchDocuments(ix, 'log').map((hit) => hit.id)).toEqual(['z']);
  });

  it('forgets what it removed or replaced, terms included', () => {
    const ix = index();
    addDocument(ix, 'a', ['alpha', 'shared words']);
    addDocument(ix, 'b', ['beta', 'shared words']);
    removeDocument(ix, 'a');
    expect(documentCount(ix)).toBe(1);
    expect(searchDocuments(ix, 'alpha')).toEqual([]);
    addDocument(ix, 'b', ['gamma', 'other']);
    expect(searchDocuments(ix, 'beta')).toEqual([]);
    expect(searchDocuments(ix, 'shared')).toEqual([]);
    expect(searchDocuments(ix, 'gamma').map((hit) => hit.id)).toEqual(['b']);
    removeDocument(ix, 'b');
    expect(searchDocuments(ix, 'gamma')).toEqual([]);
  });

  it('reads a field given in pieces as the same field joined', () => {
    const joined = index();
    const pieces = index();
    addDocument(joined, 'a', ['owner repo', 'the owner of the repository path']);
    addDocument(pieces, 'a', [
      ['owner', 'repo'],
      ['the owner of', 'the repository', 'path'],
    ]);
    addDocument(joined, 'b', ['path', 'a file path']);
    addDocument(pieces, 'b', [['path'], ['a file path']]);
    for (const query of ['owner', 'repo', 'path', 'repository file'])
      expect(searchDocuments(pieces, query)).toEqual(searchDocuments(joined, query));
  });

  it('ranks after heavy churn (dead postings compacted, numbers reused) as an index built afresh', () => {
    // A small vocabulary, documents replaced over and over: far more dead entries than the
    // compaction waits for, terms dying and coming back, document numbers reused.
    const vocabulary = Array.from({ length: 60 }, (_, i) => `w${i.toString(36)}x${'yz'.slice(0, i % 3)}`);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const text = (n: number) => Array.from({ length: n }, () => vocabulary[random(vocabulary.length)]).join(' ');
    const churned = index();
    const final = new Map<string, string[]>();
    for (let round = 0; round < 60; round++) {
      for (let d = 0; d < 80; d++) {
        const id = `d${random(120)}`;
        if (random(5) === 0) {
          removeDocument(churned, id);
          final.delete(id);
        } else {
          const doc = [text(2), text(1 + random(12))];
          addDocument(churned, id, doc);
          final.set(id, doc);
        }
      }
    }
    const fresh = index();
    for (const [id, doc] of final) addDocument(fresh, id, doc);
    expect(documentCount(churned)).toBe(final.size);
    const byId = (hits: { id: string; score: number }[]) =>
      new Map(hits.map((hit) => [hit.id, Math.round(hit.score * 1e9)]));
    for (const word of [...vocabulary, 'w1x', 'w2'])
      expect(byId(searchDocuments(churned, word))).toEqual(byId(searchDocuments(fresh, word)));
  });
});
