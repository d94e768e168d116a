/**
 * A server's tools on its page (issue 19, the tool inventory that scales): a filter box over
 * their names and descriptions with how many it lets through, and one collapsed line per tool.
 * A keystroke hides and shows rows (`hidden`); only the rows that flipped render again.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Tool } from '../api-types.js';
import { matchTool, queryWords } from '../match-tool.js';
import { rankedTools } from '../rank-tools.js';
import { ServerToolRow } from './server-tool-row.js';
import { ToolFilterBox } from './tool-filter-box.js';

/** The section; `held` names the tools held in quarantine. */
export function ServerTools({
  api,
  server,
  tools,
  held,
}: {
  api: ApiClient;
  server: string;
  tools: readonly Tool[];
  held: ReadonlySet<string>;
}) {
  const [query, setQuery] = useState('');
  const words = queryWords(query);
  const matched = tools.map((tool) => matchTool(tool, words));
  // No row holds every word: the best the search ranks for what was typed (a task, in words).
  const ranked = matched.includes(true) ? null : rankedTools(tools, [{ server, tools }], query);
  const shown = ranked ? tools.map((tool) => ranked.has(tool)) : matched;
  const count = shown.filter(Boolean).length;
  return (
    <section aria-label="Tools" class="tool-inventory">
      <h2>Tools ({tools.length})</h2>
      {tools.length > 0 && (
        <ToolFilterBox
          id="filter-tools"
          query={query}
          onQuery={setQuery}
          shown={count}
          total={tools.length}
          ranked={count > 0 && ranked !== null}
        />
      )}
      {tools.map((tool, i) => (
        <ServerToolRow
          key={tool.name}
          api={api}
          server={server}
          tool={tool}
          held={held.has(tool.name)}
          hidden={!shown[i]}
        />
      ))}
      {count === 0 && tools.length > 0 && <p class="note">No tool matches “{query}”.</p>}
    </section>
  );
}
