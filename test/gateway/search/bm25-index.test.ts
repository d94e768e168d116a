import { describe, expect, it } from 'vitest';
import { createBm25Index, wordsOf } from '../../../src/gateway/search/bm25-index.js';

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
    ix.add('a', { name: 'weather', text: 'a forecast for a city' });
    ix.add('b', { name: 'news', text: 'weather in the headlines' });
    ix.add('c', { name: 'weather report', text: 'forecast and weather maps' });
    expect(ix.search('weather').map((hit) => hit.id)).toEqual(['c', 'a', 'b']);
    expect(ix.search('weather forecast')[0]?.id).toBe('c');
  });

  it('matches longer terms by prefix, below an exact match', () => {
    const ix = index();
    ix.add('x', { name: 'deploy', text: '' });
    ix.add('y', { name: 'deployment', text: '' });
    const hits = ix.search('deploy');
    expect(hits.map((hit) => hit.id)).toEqual(['x', 'y']);
    expect(hits[1]?.score).toBeLessThan(hits[0]?.score as number);
    // Too short a term matches only itself.
    ix.add('z', { name: 'log', text: 'logging' });
    expect(ix.search('log').map((hit) => hit.id)).toEqual(['z']);
  });

  it('forgets what it removed or replaced, terms included', () => {
    const ix = index();
    ix.add('a', { name: 'alpha', text: 'shared words' });
    ix.add('b', { name: 'beta', text: 'shared words' });
    ix.remove('a');
    expect(ix.size).toBe(1);
    expect(ix.search('alpha')).toEqual([]);
    ix.add('b', { name: 'gamma', text: 'other' });
    expect(ix.search('beta')).toEqual([]);
    expect(ix.search('shared')).toEqual([]);
    expect(ix.search('gamma').map((hit) => hit.id)).toEqual(['b']);
    ix.remove('b');
    expect(ix.search('gamma')).toEqual([]);
  });

  it('reads a field given in pieces as the same field joined', () => {
    const joined = index();
    const pieces = index();
    joined.add('a', { name: 'owner repo', text: 'the owner of the repository path' });
    pieces.add('a', { name: ['owner', 'repo'], text: ['the owner of', 'the repository', 'path'] });
    joined.add('b', { name: 'path', text: 'a file path' });
    pieces.add('b', { name: ['path'], text: ['a file path'] });
    for (const query of ['owner', 'repo', 'path', 'repository file'])
      expect(pieces.search(query)).toEqual(joined.search(query));
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
    const final = new Map<string, { name: string; text: string }>();
    for (let round = 0; round < 60; round++) {
      for (let d = 0; d < 80; d++) {
        const id = `d${random(120)}`;
        if (random(5) === 0) {
          churned.remove(id);
          final.delete(id);
        } else {
          const doc = { name: text(2), text: text(1 + random(12)) };
          churned.add(id, doc);
          final.set(id, doc);
        }
      }
    }
    const fresh = index();
    for (const [id, doc] of final) fresh.add(id, doc);
    expect(churned.size).toBe(final.size);
    const byId = (hits: { id: string; score: number }[]) =>
      new Map(hits.map((hit) => [hit.id, Math.round(hit.score * 1e9)]));
    for (const word of [...vocabulary, 'w1x', 'w2'])
      expect(byId(churned.search(word))).toEqual(byId(fresh.search(word)));
  });
});
