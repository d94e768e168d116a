import { describe, expect, it } from 'vitest';
import { createWordTable, scanWords } from '../../../src/gateway/search/vocabulary.js';

/** A word table whose values `make` makes, scanned with a visitor per text. */
function createVocabulary<V>(make: (word: string) => V) {
  const words = createWordTable<V>();
  return {
    get size() {
      return words.values.length;
    },
    forEachWord: (text: string, visit: (value: V) => void) =>
      scanWords(
        words,
        text,
        visit,
        (_, word) => make(word),
        (each, value) => each(value),
      ),
  };
}

import { fixtureView } from '../../support/tool-catalog.js';

const unicode = /[\n\r\p{Z}\p{P}]+/u;

/** The words `text` visits, as the strings the vocabulary made for them. */
function wordsVisited(text: string): string[] {
  const vocabulary = createVocabulary((word) => word);
  const out: string[] = [];
  vocabulary.forEachWord(text, (word) => out.push(word));
  return out;
}

describe('scanWords', () => {
  it('finds the words the Unicode separator-or-punctuation pattern splits, less the empty ones', () => {
    const every = Array.from({ length: 0x3100 }, (_, code) => `a${String.fromCharCode(code)}b`);
    const texts = [
      ...every,
      every.join(''),
      'read\tthe file, then (maybe) write it: done.',
      '  leading and trailing  ',
      'astral 𝒳 letters and a 𝄞 clef, an 𐩐 punctuation mark',
      '',
    ];
    for (const text of texts) expect(wordsVisited(text)).toEqual(text.split(unicode).filter(Boolean));
  });

  it('makes a value once per distinct word, and gives it back each time the word comes again', () => {
    let made = 0;
    const vocabulary = createVocabulary((word) => ({ word, n: made++ }));
    const seen: string[] = [];
    vocabulary.forEachWord('list files, list directories; files!', (value) => seen.push(`${value.word}#${value.n}`));
    expect(seen).toEqual(['list#0', 'files#1', 'list#0', 'directories#2', 'files#1']);
    expect(vocabulary.size).toBe(3);
  });

  it('tells apart every word of the fixture catalog (no two words share a value)', () => {
    const vocabulary = createVocabulary((word) => word);
    const distinct = new Set<string>();
    for (const { tool } of fixtureView()) {
      const text = `${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.inputSchema)}`;
      vocabulary.forEachWord(text, (word) => distinct.add(word));
      for (const word of text.split(unicode)) if (word) distinct.add(word);
    }
    // Had two different words met, the vocabulary would hold fewer values than there are words.
    expect(vocabulary.size).toBe(distinct.size);
    expect(vocabulary.size).toBeGreaterThan(2000);
  });
});
