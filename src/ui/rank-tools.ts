/**
 * The tool filter's ranked half (issue 24): when no row holds every word typed, what
 * `search_tools` finds for the query, so that a task typed into the filter ("open an issue
 * about the login bug") still shows the tools it needs; a filter that matches stays exact.
 * The same index as the gateway's (field-weighted BM25+
 * over name words, title, description, parameters and server), built once per list of
 * tools in the page and kept while that list lives.
 * @module
 */
import { createToolIndex, nameWords, type ToolIndex, toTerm } from '../gateway/search/index.js';
import type { Tool } from './api-types.js';

/** How many of the best-ranked tools a query shows when no row holds every word. */
export const RANKED_SHOWN = 10;

/** One server's tools, as a page holds them. */
export type ToolGroup = { readonly server: string; readonly tools: readonly Tool[] };

type Ranked = { readonly index: ToolIndex; readonly byKey: ReadonlyMap<string, Tool> };
const indexes = new WeakMap<object, Ranked>();

/** The index of `groups`, made once for that list (`key`: the object that holds it). */
function rankedOf(key: object, groups: readonly ToolGroup[]): Ranked {
  let ranked = indexes.get(key);
  if (ranked === undefined) {
    const byKey = new Map<string, Tool>();
    const index = createToolIndex();
    index.sync(
      groups.flatMap(({ server, tools }) =>
        tools.map((tool) => {
          // Names are unique within a server only: the index is keyed by both.
          const name = `${server}/${tool.name}`;
          byKey.set(name, tool);
          return { tool: { ...tool, name }, server, ownName: tool.name };
        }),
      ),
    );
    ranked = { index, byKey };
    indexes.set(key, ranked);
  }
  return ranked;
}

/**
 * The tools of `groups` ranked best for `query` (at most {@link RANKED_SHOWN}), each naming
 * one of the query's words: a row list is not a ranking, and a word every description holds
 * ("tool") must not fill it with tools that merely say it. None for a blank query.
 */
export function rankedTools(key: object, groups: readonly ToolGroup[], query: string): Set<Tool> {
  if (query.trim() === '') return new Set();
  const { index, byKey } = rankedOf(key, groups);
  const hits = index.search(query, RANKED_SHOWN);
  if (hits instanceof Error) return new Set();
  const asked = new Set(termsOf(query));
  const found = new Set<Tool>();
  for (const hit of hits) {
    const tool = byKey.get(hit.name) as Tool;
    if (termsOf(nameWords(tool.name)).some((term) => asked.has(term))) found.add(tool);
  }
  return found;
}

/** The index terms of the words of `text`. */
const termsOf = (text: string): string[] =>
  text.split(/[^\p{L}\p{N}]+/u).flatMap((word) => toTerm(word) ?? []);
