/**
 * One tool on a server's page, collapsed to one line (name, title, held badge, the first
 * sentence of its description) until opened; opened, its whole description, its input schema
 * as a table and its test form. What is inside is rendered only once opened: that is what
 * keeps a server of 300 tools quick to show and to filter (issue 19). The name is a heading's
 * button with `aria-expanded` (the accordion pattern): a list of headings to jump through.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Tool } from '../api-types.js';
import { shortDescription } from '../match-tool.js';
import { memo } from '../memo.js';
import { SchemaTable } from './schema-table.js';
import { ToolTestForm } from './tool-test-form.js';

/** What the row shows once opened. */
function ServerToolDetail({ api, server, tool, held }: { api: ApiClient; server: string; tool: Tool; held: boolean }) {
  return (
    <div class="tool-detail">
      {held && (
        <p>
          <a class="badge state-reconnecting" href="#/quarantines">
            held: review under Quarantines
          </a>
        </p>
      )}
      <p class="prose">{tool.description ?? '(no description)'}</p>
      <SchemaTable schema={tool.inputSchema} caption={`Input of ${tool.name}`} />
      <details class="try">
        <summary>Try {tool.name}</summary>
        <ToolTestForm api={api} server={server} tool={tool.name} inputSchema={tool.inputSchema} />
      </details>
    </div>
  );
}

/** The row; `hidden` while the filter leaves it out (kept, so an open form keeps what was typed). */
export const ServerToolRow = memo(function ServerToolRow({
  api,
  server,
  tool,
  held,
  hidden,
}: {
  api: ApiClient;
  server: string;
  tool: Tool;
  held: boolean;
  hidden: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div class="tool-row card" data-tool={tool.name} data-open={open} hidden={hidden}>
      <h3>
        <button type="button" class="disclose" aria-expanded={open} onClick={() => setOpen(!open)}>
          <code>{tool.name}</code>
          {tool.title && <span class="note"> {tool.title}</span>}
          {held && <span class="badge state-reconnecting">held</span>}{' '}
          <span class="tool-line note">{shortDescription(tool.description)}</span>
        </button>
      </h3>
      {open && <ServerToolDetail api={api} server={server} tool={tool} held={held} />}
    </div>
  );
});
