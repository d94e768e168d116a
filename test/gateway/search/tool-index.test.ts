import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { linearRegex } from '../../../src/gateway/linear-regex.js';
import { nameWords } from '../../../src/gateway/search/name-words.js';
import { createToolIndex, type ToolHit } from '../../../src/gateway/search/tool-index.js';
import { fixtureQueries, fixtureView } from '../../support/tool-catalog.js';

const names = (hits: ToolHit[] | Error): string[] => {
  if (hits instanceof Error) throw hits;
  return hits.map((hit) => hit.name);
};

const tool = (name: string, description: string, properties: Record<string, object> = {}): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties },
});

describe('nameWords', () => {
  it.each([
    ['github__create_pull_request', 'github create pull request'],
    ['getFileContents', 'get file contents'],
    ['list-pods', 'list pods'],
    ['HTMLParser2go', 'html parser 2 go'],
    ['read.text/file', 'read text file'],
  ])('%s → %s', (name, words) => {
    expect(nameWords(name)).toBe(words);
  });
});

describe('ranking on the fixture catalog (real servers, 400 tools)', () => {
  const view = fixtureView();
  const index = createToolIndex();
  index.sync(view);

  it('holds at least 300 tools', () => {
    expect(index.size).toBeGreaterThanOrEqual(300);
  });

  it('puts the right tool in the top 3 for at least 90 % of task-style queries', () => {
    const queries = fixtureQueries();
    const misses: string[] = [];
    let top1 = 0;
    for (const [query, right] of queries) {
      const found = names(index.search(query, 3));
      if (right.includes(found[0] as string)) top1 += 1;
      if (!found.some((name) => right.includes(name))) misses.push(`${query} → ${found.join(', ')}`);
    }
    const top3 = queries.length - misses.length;
    // The rates docs/gateway.md reports (60 queries: top-1 50, top-3 57 when written).
    expect(top3 / queries.length, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(top1 / queries.length).toBeGreaterThanOrEqual(0.75);
  });

  it.each([
    ['open an issue about the login bug', 'github__create_issue'],
    ['what files are in my notes folder', 'filesystem__list_directory'],
    ['scale the web deployment to 5 replicas', 'kubectl__scale_deployment'],
    ['cancel my subscription', 'stripe__cancel_subscription'],
  ])('"%s" finds %s in the top 3', (query, right) => {
    expect(names(index.search(query, 3))).toContain(right);
  });

  it('returns one-line summaries, best first', () => {
    const hits = index.search('create a pull request', 5) as ToolHit[];
    expect(hits[0]?.name).toBe('github__create_pull_request');
    for (const hit of hits) expect(hit.summary).not.toContain('\n');
    const scores = hits.map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('select: picks exact names in the order given, skipping unknown ones', () => {
    expect(names(index.search('select:memory__read_graph, nope__x,github__get_me', 10))).toEqual([
      'memory__read_graph',
      'github__get_me',
    ]);
  });

  it('regex: matches names, case-insensitively, up to the limit', () => {
    const found = names(index.search('regex:^KUBECTL__.*helm', 10));
    expect(found.sort()).toEqual([
      'kubectl__install_helm_chart',
      'kubectl__uninstall_helm_chart',
      'kubectl__upgrade_helm_chart',
    ]);
    expect(names(index.search('regex:^github__', 4))).toHaveLength(4);
  });

  it('a regex that does not compile is one line naming the problem', () => {
    const error = index.search('regex:([a-', 5);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^not a regular expression: Invalid regular expression/);
    expect((error as Error).message).not.toContain('\n');
  });

  it("regex: with the service's engine runs in linear time: a pattern that backtracks forever in V8 answers at once (X8)", () => {
    const many = createToolIndex({ regex: linearRegex });
    many.sync(
      Array.from({ length: 200 }, (_, i) => ({
        tool: { name: `github__${'a'.repeat(40)}${i}`, inputSchema: { type: 'object' as const } },
        server: 'github',
        ownName: `${'a'.repeat(40)}${i}`,
      })),
    );
    const started = performance.now();
    // V8's own engine takes hours on one 48-character name with this (2^n backtracking).
    expect(names(many.search('regex:(\\w+)*!', 10))).toEqual([]);
    expect(names(many.search('regex:^GITHUB__a{40}1$', 10))).toEqual([
      'github__aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1',
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((many.search('regex:([a-', 5) as Error).message).toBe(
      'not a regular expression: error parsing regexp: missing closing ]: `[a-`',
    );
    // RE2's syntax: no lookaround, said in one line.
    expect((many.search('regex:(?<=a)b', 5) as Error).message).toMatch(
      /^not a regular expression: error parsing regexp: /,
    );
  });

  it('a query of common words only finds nothing rather than everything', () => {
    expect(names(index.search('the of and to', 5))).toEqual([]);
  });
});

describe('the index follows the listing', () => {
  it('re-indexes changed tools, forgets gone ones, adds new ones', () => {
    const index = createToolIndex();
    const a = { tool: tool('s__alpha', 'Send a postcard'), server: 's', ownName: 'alpha' };
    const b = { tool: tool('s__beta', 'Bake bread'), server: 's', ownName: 'beta' };
    index.sync([a, b]);
    expect(names(index.search('postcard', 5))).toEqual(['s__alpha']);
    // alpha's description changes (list_changed), beta leaves, gamma arrives.
    const changed = { ...a, tool: tool('s__alpha', 'Water the plants') };
    const c = {
      tool: tool('s__gamma', 'Bake a cake', { flavour: { description: 'postcard flavour' } }),
      server: 's',
      ownName: 'gamma',
    };
    index.sync([changed, c]);
    expect(names(index.search('plants', 5))).toEqual(['s__alpha']);
    expect(names(index.search('bread', 5))).toEqual([]);
    expect(names(index.search('postcard', 5))).toEqual(['s__gamma']);
    expect(index.size).toBe(2);
    expect(index.tool('s__beta')).toBeUndefined();
  });

  it('measures: a query over 2,000 tools, and the index built for them', () => {
    const base = fixtureView();
    const many = Array.from({ length: 5 }, (_, i) =>
      base.map((entry) => ({ ...entry, tool: { ...entry.tool, name: `${entry.tool.name}_${i}` } })),
    ).flat();
    const started = performance.now();
    const index = createToolIndex();
    index.sync(many);
    const built = performance.now() - started;
    const times: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const at = performance.now();
      index.search(i % 2 ? 'open an issue about the login bug' : 'which pods are running', 10);
      times.push(performance.now() - at);
    }
    times.sort((x, y) => x - y);
    // Bounds loose enough for a loaded machine; docs/performance.md has the quiet figures.
    expect(index.size).toBe(2000);
    expect(built).toBeLessThan(10_000);
    expect(times[100]).toBeLessThan(50);
  });
});
