/**
 * The tool inventory's filter (issue 19): whether a tool matches what was typed, by its name,
 * title or description, case-insensitively, every word of the query somewhere; and the one
 * line of description a collapsed row shows. Pure; the lower-cased text of each tool is kept
 * (per tool object) so that a keystroke over 300 tools is a few hundred `includes`.
 * @module
 */

/** What a filter looks at in a tool. */
export type Matchable = { readonly name: string; readonly title?: string | undefined; readonly description?: string };

const searchable = new WeakMap<Matchable, string>();

/** The words of `query`, lower-cased; none matches everything. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether `tool` has every one of `words` in its name, title or description. */
export function matchTool(tool: Matchable, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  let text = searchable.get(tool);
  if (text === undefined) {
    text = `${tool.name}\n${tool.title ?? ''}\n${tool.description ?? ''}`.toLowerCase();
    searchable.set(tool, text);
  }
  for (const word of words) if (!text.includes(word)) return false;
  return true;
}

/** How long a collapsed row's description may be before it is cut (the row is one line). */
const SHORT_CHARS = 110;

/** The first sentence or line of `description`, cut at a word to at most {@link SHORT_CHARS}. */
export function shortDescription(description: string | undefined): string {
  if (!description) return '';
  const first = description.trim().split(/\n|(?<=[.!?])\s/, 1)[0] ?? '';
  if (first.length <= SHORT_CHARS) return first;
  const cut = first.slice(0, SHORT_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SHORT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
