/**
 * The words of a tool name, for the search index (issue 24): agents ask in words, tools
 * are named `github__create_pull_request`, `getFileContents`, `list-pods`. Splits on `__`,
 * `_`, `-`, `.`, `/`, spaces, camelCase and letter–digit boundaries; lowercase.
 * @module
 */

/** Names already split: a catalog repeats its parameter names (`owner`, `repo`, `path`) thousands of times. */
const split = new Map<string, string>();
const MAX_SPLIT = 20_000;

/** `github__createPullRequest` → `github create pull request`. */
export function nameWords(name: string): string {
  let words = split.get(name);
  if (words === undefined) {
    words = splitName(name);
    if (split.size >= MAX_SPLIT) split.clear();
    split.set(name, words);
  }
  return words;
}

function splitName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/gu, '$1 $2')
    .replace(/([A-Za-z])(\d)/gu, '$1 $2')
    .replace(/(\d)([A-Za-z])/gu, '$1 $2')
    .replace(/[\s_./:-]+/gu, ' ')
    .trim()
    .toLowerCase();
}
