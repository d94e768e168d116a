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
});
