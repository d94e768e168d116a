/**
 * The service's `regex:` queries (tool search, issue 24): an agent's pattern in RE2's syntax,
 * matched in time linear in the text by re2js (a port of RE2, no backtracking). V8's own
 * engine backtracks: `(\w+)*!` over a 30-character tool name held the event loop for seconds,
 * and every session and the API with it (X8, "whatever a client does"). re2js is required at
 * the first such query (most services never get one), not at start; RE2's syntax has no
 * lookaround nor backreferences, and such a pattern is refused in one line. Given to the
 * search indexes by the gateway (here, not in `search/`, whose ranking the web UI bundles:
 * Node's `module` has no place in a page).
 * @module
 */
import { createRequire } from 'node:module';
import type { RegexMatcher } from './search/index.js';

let re2: typeof import('re2js') | null = null;

/** A case-insensitive matcher of `source`; throws re2js's parse error, which quotes the pattern. */
export const linearRegex: RegexMatcher = (source) => {
  re2 ??= createRequire(import.meta.url)('re2js') as typeof import('re2js');
  // Parsed as given first: its error then quotes the agent's pattern, not the `(?i)` the flag adds.
  re2.RE2JS.compile(source);
  const pattern = re2.RE2JS.compile(source, re2.RE2JS.CASE_INSENSITIVE);
  return (text) => pattern.matcher(text).find();
};
