/**
 * A bot's tools, server by server, each with a switch: on, the bot's view serves it; off, it
 * is denied (SPEC B2, G3). A switch writes the bot's `toolPermissions` in the config file
 * through the API, which applies it at once: the bot's MCP sessions get `list_changed`. Per
 * server, "allow all" drops the server's lists (`DELETE …/permissions/{server}`) and "deny
 * all" denies every tool it lists (`PATCH`). A filter box narrows the rows by name and
 * description; each row is one line until opened (issue 19, the tool inventory that scales).
 * @module
 */
import { useCallback, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot, Tool } from '../api-types.js';
import { permissionChange } from '../bot-permissions.js';
import { useLiveEvent } from '../live.js';
import { matchTool, queryWords } from '../match-tool.js';
import { rankedTools } from '../rank-tools.js';
import { useLoad } from '../use-load.js';
import { BotToolGroup } from './bot-tool-group.js';
import { ErrorNote } from './error-note.js';
import { ToolFilterBox } from './tool-filter-box.js';

/** Each server's tools, or why they are not there (a server that is not connected). */
async function loadTools(api: ApiClient, servers: readonly string[]) {
  return Promise.all(
    servers.map(async (server) => {
      try {
        return { server, tools: (await api.tools(server)).tools, error: null };
      } catch (error) {
        return { server, tools: [] as Tool[], error: (error as Error).message };
      }
    }),
  );
}

/** The switches of `bot`; `onChanged` gets the bot as the API answers after an edit. */
export function BotTools({ api, bot, onChanged }: { api: ApiClient; bot: Bot; onChanged: (bot: Bot) => void }) {
  const catalogs = useLoad(() => loadTools(api, bot.servers), [bot.servers.join()]);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  // The states asked for, shown until the API's answer says what the view now is.
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const busy = Object.keys(pending).length > 0;
  useLiveEvent(
    (event) =>
      bot.servers.includes(event.server ?? '') && (event.type === 'connected' || event.type === 'catalog_changed'),
    catalogs.reload,
  );
  /** Send one edit, showing `asked` meanwhile; the answer's bot replaces the page's. */
  const write = async (asked: Record<string, boolean>, what: string, send: () => Promise<{ bot: Bot }>) => {
    setPending(asked);
    setError(null);
    try {
      onChanged((await send()).bot);
    } catch (failure) {
      setError(`Could not ${what}: ${(failure as Error).message}`);
    } finally {
      setPending({});
    }
  };
  const toggle = (server: string, tool: string, allow: boolean) => {
    const change = permissionChange(bot.view, server, tool, allow);
    return write({ [`${server}/${tool}`]: allow }, `${allow ? 'allow' : 'deny'} ${tool}`, () =>
      change.kind === 'patch' ? api.denyOrAllow(bot.slug, server, change.edit) : api.replaceView(bot.slug, change.view),
    );
  };
  const all = (server: string, allow: boolean) => {
    const names = catalogs.data?.find((c) => c.server === server)?.tools.map((t) => t.name) ?? [];
    const asked = Object.fromEntries(names.map((name) => [`${server}/${name}`, allow]));
    return write(asked, `${allow ? 'allow' : 'deny'} every tool of ${server}`, () =>
      allow ? api.dropPermissions(bot.slug, server) : api.denyOrAllow(bot.slug, server, { deny: names }),
    );
  };
  // The rows get callbacks that stay the same from render to render, so that a row whose
  // props did not change is not rendered again (a keystroke re-renders only what it hid or showed).
  const latest = useRef({ toggle, all });
  latest.current = { toggle, all };
  const onSwitch = useCallback((s: string, t: string, allow: boolean) => latest.current.toggle(s, t, allow), []);
  const onAll = useCallback((s: string, allow: boolean) => latest.current.all(s, allow), []);

  const words = queryWords(query);
  const every = catalogs.data?.flatMap((c) => c.tools) ?? [];
  const matched = new Set(every.filter((tool) => matchTool(tool, words)));
  // No row holds every word: the best the search ranks for what was typed (a task, in words).
  const ranked = matched.size === 0 && catalogs.data ? rankedTools(catalogs.data, catalogs.data, query) : null;
  const shown = ranked ?? matched;
  return (
    <section aria-labelledby="bot-tools-title" class="tool-inventory">
      <h2 id="bot-tools-title">Tools</h2>
      <ErrorNote error={error ?? catalogs.error} />
      {every.length > 0 && (
        <ToolFilterBox
          id="filter-bot-tools"
          query={query}
          onQuery={setQuery}
          shown={shown.size}
          total={every.length}
          ranked={shown.size > 0 && ranked !== null}
        />
      )}
      {catalogs.data?.map(({ server, tools, error: unavailable }) => (
        <BotToolGroup
          key={server}
          server={server}
          tools={tools}
          unavailable={unavailable}
          view={bot.view}
          shown={shown}
          pending={pending}
          busy={busy}
          onSwitch={onSwitch}
          onAll={onAll}
        />
      ))}
    </section>
  );
}
