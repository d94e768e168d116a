import { describe, expect, it } from 'vitest';
import { createWordTable, scanWords } from '../../../src/gateway/search/vocabulary.js';

/** A word table scanned with a visitor per text, given each word's number and its string. */
function createVocabulary() {
  const words = createWordTable();
  return {
    get size() {
      return words.said.length;
    },
    forEachWord: (text: string, visit: (word: number, said: string) => void) =>
      scanWords(words, text, visit, (each, word) => each(word, words.said[word] as string)),
  };
}

import { fixtureView } from '../../support/tool-catalog.js';

const unicode = /[\n\r\p{Z}\p{P}]+/u;

/** The words `text` visits, as the strings the vocabulary made for them. */
function wordsVisited(text: string): string[] {
  const vocabulary = createVocabulary();
  const out: string[] = [];
  vocabulary.forEachWord(text, (_, said) => out.push(said));
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

  it('numbers each distinct word once, in the order first seen, and gives the number back each time the word comes again', () => {
    const vocabulary = createVocabulary();
    const seen: string[] = [];
    vocabulary.forEachWord('list files, list directories; files!', (word, said) => seen.push(`${said}#${word}`));
    vocabulary.forEachWord('files then list', (word, said) => seen.push(`${said}#${word}`));
    expect(seen).toEqual(['list#0', 'files#1', 'list#0', 'directories#2', 'files#1', 'files#1', 'then#3', 'list#0']);
    expect(vocabulary.size).toBe(4);
  });

  it('tells apart every word of the fixture catalog (no two words share a number)', () => {
    const vocabulary = createVocabulary();
    const distinct = new Set<string>();
    for (const { tool } of fixtureView()) {
      const text = `${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.inputSchema)}`;
      vocabulary.forEachWord(text, (_, said) => distinct.add(said));
      for (const word of text.split(unicode)) if (word) distinct.add(word);
    }
    // Had two different words met, the vocabulary would hold fewer numbers than there are words.
    expect(vocabulary.size).toBe(distinct.size);
    expect(vocabulary.size).toBeGreaterThan(2000);
  });
});
