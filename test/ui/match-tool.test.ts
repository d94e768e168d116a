/**
 * The tool inventory's filter and one-line descriptions (issue 19): every word of the query,
 * in any case, somewhere in the name, title or description; an empty query lets all through;
 * a description cut at its first sentence, or at a word with an ellipsis when that is long.
 */
import { describe, expect, it } from 'vitest';
import { matchTool, queryWords, shortDescription } from '../../src/ui/match-tool.js';

const readFile = { name: 'read_file', description: 'Reads a file from the allowed directories.' };
const search = { name: 'search_issues', title: 'Issue search', description: 'Finds issues by text.' };

describe('matchTool', () => {
  it('matches every word, in any case, in the name, title or description', () => {
    expect(matchTool(readFile, queryWords('READ'))).toBe(true);
    expect(matchTool(readFile, queryWords('  file   Directories '))).toBe(true);
    expect(matchTool(search, queryWords('issue SEARCH'))).toBe(true);
    expect(matchTool(readFile, queryWords('file write'))).toBe(false);
    expect(matchTool(search, queryWords('read'))).toBe(false);
  });

  it('lets everything through for an empty or blank query, and copes with no description', () => {
    expect(queryWords('   ')).toEqual([]);
    expect(matchTool(readFile, queryWords(''))).toBe(true);
    expect(matchTool({ name: 'bare' }, queryWords('bare'))).toBe(true);
    expect(matchTool({ name: 'bare' }, queryWords('undefined'))).toBe(false);
  });
});

describe('shortDescription', () => {
  it('keeps the first sentence or line', () => {
    expect(shortDescription('Reads a file. Then more. And more.')).toBe('Reads a file.');
    expect(shortDescription('First line\nsecond line')).toBe('First line');
    expect(shortDescription('  v1.2 of the reader: reads files  ')).toBe('v1.2 of the reader: reads files');
    expect(shortDescription(undefined)).toBe('');
  });

  it('cuts a long sentence at a word, with an ellipsis, within 110 characters', () => {
    const long = `${'word '.repeat(40)}end.`;
    const short = shortDescription(long);
    expect(short.endsWith('word…')).toBe(true);
    expect(short.length).toBeLessThanOrEqual(111);
  });
});
