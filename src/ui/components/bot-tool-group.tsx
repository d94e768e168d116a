/**
 * One server's tools on a bot's tab: how many the filter shows, "allow all" and "deny all"
 * for that server, and a row per tool with its switch (issue 19).
 * @module
 */
import type { BotView, Tool } from '../api-types.js';
import { isToolAllowed } from '../bot-permissions.js';
import { BotToolRow } from './bot-tool-row.js';

/** The group of `server`; `pending` holds the states asked for and not yet answered. */
export function BotToolGroup({
  server,
  tools,
  unavailable,
  view,
  shown,
  pending,
  busy,
  onSwitch,
  onAll,
}: {
  server: string;
  tools: readonly Tool[];
  unavailable: string | null;
  view: BotView | null;
  shown: ReadonlySet<Tool>;
  pending: Readonly<Record<string, boolean>>;
  busy: boolean;
  onSwitch: (server: string, tool: string, allow: boolean) => void;
  onAll: (server: string, allow: boolean) => void;
}) {
  const count = tools.filter((tool) => shown.has(tool)).length;
  return (
    <fieldset class="tool-group" data-server={server}>
      <legend>
        {server}{' '}
        <span class="note">
          {count === tools.length ? `${tools.length} tools` : `${count} of ${tools.length} tools`}
        </span>
      </legend>
      {unavailable && <p class="note">{unavailable}</p>}
      <p class="buttons">
        <button type="button" disabled={busy} onClick={() => onAll(server, true)}>
          Allow all tools of {server}
        </button>{' '}
        <button type="button" disabled={busy || tools.length === 0} onClick={() => onAll(server, false)}>
          Deny all tools of {server}
        </button>
      </p>
      <ul class="tool-rows">
        {tools.map((tool) => (
          <BotToolRow
            key={tool.name}
            server={server}
            tool={tool}
            allowed={pending[`${server}/${tool.name}`] ?? isToolAllowed(view, server, tool.name)}
            disabled={busy}
            hidden={!shown.has(tool)}
            onSwitch={onSwitch}
          />
        ))}
      </ul>
    </fieldset>
  );
}
