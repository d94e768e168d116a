/**
 * One tool on a bot's tab, on one line: its switch (named with its server, "read_file
 * (filesystem) allowed", so that a screen reader can tell two servers' `read_file` apart),
 * then the first sentence of its description, a button that opens the whole description and
 * the input schema, rendered only once opened (issue 19). A button with `aria-expanded` rather
 * than `<details>`: each `<details>` brings a shadow tree, and 300 of them doubled the style work.
 * @module
 */
import { useState } from 'preact/hooks';
import type { Tool } from '../api-types.js';
import { shortDescription } from '../match-tool.js';
import { memo } from '../memo.js';
import { SchemaTable } from './schema-table.js';

/** The row; `onSwitch` gets the server, the tool and the state asked for. */
export const BotToolRow = memo(function BotToolRow({
  server,
  tool,
  allowed,
  disabled,
  hidden,
  onSwitch,
}: {
  server: string;
  tool: Tool;
  allowed: boolean;
  disabled: boolean;
  hidden: boolean;
  onSwitch: (server: string, tool: string, allow: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li class="tool-row" data-tool={`${server}/${tool.name}`} data-open={open} hidden={hidden}>
      <label class="switch">
        <input
          type="checkbox"
          role="switch"
          checked={allowed}
          aria-checked={allowed}
          disabled={disabled}
          onChange={(e) => onSwitch(server, tool.name, e.currentTarget.checked)}
        />{' '}
        <code>{tool.name}</code>
        <span class="visually-hidden"> ({server})</span> <span class="note">{allowed ? 'allowed' : 'denied'}</span>
      </label>
      <button type="button" class="disclose" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class="visually-hidden">About {tool.name}: </span>
        {shortDescription(tool.description) || '(no description)'}
      </button>
      {open && (
        <div class="tool-detail">
          <p class="prose">{tool.description ?? '(no description)'}</p>
          <SchemaTable schema={tool.inputSchema} caption={`Input of ${tool.name}`} />
        </div>
      )}
    </li>
  );
});
