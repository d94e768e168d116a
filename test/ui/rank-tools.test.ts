/**
 * The tool filter's ranked half (issue 24): when no row holds every word typed, the search's
 * best matches that name one of the words; nothing for a blank query or for a word that
 * every description holds.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { rankedTools } from '../../src/ui/rank-tools.js';

const tool = (name: string, description: string): Tool => ({
  name,
  description: `${description} It says what the tool needs and gives back.`,
  inputSchema: { type: 'object' },
});
const github = [
  tool('create_issue', 'Creates an issue in a repository.'),
  tool('list_issues', 'Lists the issues of a repository.'),
  tool('create_pull_request', 'Opens a pull request.'),
];
const files = [tool('list_directory', 'Lists the entries of a directory.'), tool('read_file', 'Reads a file.')];
const groups = [
  { server: 'github', tools: github },
  { server: 'filesystem', tools: files },
];

describe('rankedTools', () => {
  it('finds the tools a task typed in words needs, across servers', () => {
    const key = {};
    const names = (query: string) => [...rankedTools(key, groups, query)].map((t) => t.name);
    expect(names('open an issue about the login bug')[0]).toBe('create_issue');
    expect(names('what files are in my notes folder')).toContain('list_directory');
  });

  it('shows nothing for a blank query, or for words no tool is named by', () => {
    const key = {};
    expect(rankedTools(key, groups, '   ').size).toBe(0);
    // Every description says "tool": it names none.
    expect(rankedTools(key, groups, 'no such tool').size).toBe(0);
  });

  it('keys its index by the list it was given: a new list is indexed anew', () => {
    const first = [{ server: 'github', tools: github }];
    expect([...rankedTools(first, first, 'create issue')].map((t) => t.name)).toContain('create_issue');
    const second = [{ server: 'filesystem', tools: files }];
    expect([...rankedTools(second, second, 'create issue')]).toEqual([]);
  });
});
