/**
 * A bot's tools, server by server, each with a switch: on, the bot's view serves it; off, it
 * is denied (SPEC B2, G3). A switch writes the bot's `toolPermissions` in the config file
 * through the API, which applies it at once: the bot's MCP sessions get `list_changed`.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot, Tool } from '../api-types.js';
import { isToolAllowed, permissionChange } from '../bot-permissions.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';
import { ErrorNote } from './error-note.js';

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
  // The state asked for, shown until the API's answer says what the view now is.
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const busy = Object.keys(pending).length > 0;
  useLiveEvent(
    (event) =>
      bot.servers.includes(event.server ?? '') && (event.type === 'connected' || event.type === 'catalog_changed'),
    catalogs.reload,
  );
  const toggle = async (server: string, tool: string, allow: boolean) => {
    const change = permissionChange(bot.view, server, tool, allow);
    const key = `${server}/${tool}`;
    setPending({ [key]: allow });
    setError(null);
    try {
      const answer =
        change.kind === 'patch'
          ? await api.denyOrAllow(bot.slug, server, change.edit)
          : await api.replaceView(bot.slug, change.view);
      onChanged(answer.bot);
    } catch (failure) {
      setError(`Could not ${allow ? 'allow' : 'deny'} ${tool}: ${(failure as Error).message}`);
    } finally {
      setPending({});
    }
  };
  return (
    <section aria-labelledby="bot-tools-title">
      <h2 id="bot-tools-title">Tools</h2>
      <ErrorNote error={error ?? catalogs.error} />
      {catalogs.data?.map(({ server, tools, error: unavailable }) => (
        <fieldset key={server} class="tool-switches">
          <legend>{server}</legend>
          {unavailable && <p class="note">{unavailable}</p>}
          {tools.map((tool) => {
            const allowed = pending[`${server}/${tool.name}`] ?? isToolAllowed(bot.view, server, tool.name);
            return (
              <label key={tool.name} class="switch" data-tool={`${server}/${tool.name}`}>
                <input
                  type="checkbox"
                  role="switch"
                  checked={allowed}
                  aria-checked={allowed}
                  disabled={busy}
                  onChange={(e) => toggle(server, tool.name, e.currentTarget.checked)}
                />{' '}
                <code>{tool.name}</code> <span class="note">{allowed ? 'allowed' : 'denied'}</span>
              </label>
            );
          })}
        </fieldset>
      ))}
    </section>
  );
}
