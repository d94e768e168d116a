/**
 * The words of a tool name, for the search index (issue 24): agents ask in words, tools
 * are named `github__create_pull_request`, `getFileContents`, `list-pods`. Splits on `__`,
 * `_`, `-`, `.`, `/`, spaces, camelCase and letter–digit boundaries; lowercase.
 * @module
 */

/** `github__createPullRequest` → `github create pull request`. */
export function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/gu, '$1 $2')
    .replace(/([A-Za-z])(\d)/gu, '$1 $2')
    .replace(/(\d)([A-Za-z])/gu, '$1 $2')
    .replace(/[\s_./:-]+/gu, ' ')
    .trim()
    .toLowerCase();
}
