/**
 * A bot's servers (SPEC B2): each with its live state, a button taking it out of the bot's
 * view, and a choice of the other configured servers to add to it. Each change is written
 * to the bot's entry in the config file by the API (`POST`/`DELETE
 * /api/bots/{slug}/servers/{server}`) and applied at once; the list is what the API answers.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot } from '../api-types.js';
import { useLive } from '../live.js';
import { hrefOf } from '../use-route.js';
import { ErrorNote } from './error-note.js';
import { StateBadge } from './state-badge.js';

/** The section; `onChanged` gets the bot as the API answers it after a change. */
export function BotServers({ api, bot, onChanged }: { api: ApiClient; bot: Bot; onChanged: (bot: Bot) => void }) {
  const live = useLive();
  const [adding, setAdding] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const others = live.servers.filter((s) => !bot.servers.includes(s.name));
  /** Run `edit`; `done` after it succeeded (only an add clears the choice: a removal answered late must not). */
  const change = async (edit: () => Promise<{ bot: Bot }>, done?: () => void) => {
    setError(null);
    setBusy(true);
    try {
      onChanged((await edit()).bot);
      done?.();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const add = (event: Event) => {
    event.preventDefault();
    if (adding)
      void change(
        () => api.addBotServer(bot.slug, adding),
        () => setAdding(''),
      );
  };
  return (
    <section aria-labelledby="bot-servers-title">
      <h2 id="bot-servers-title">Servers ({bot.servers.length})</h2>
      <ul class="listing bot-servers">
        {bot.servers.map((name) => {
          const server = live.servers.find((s) => s.name === name);
          return (
            <li key={name} data-server={name} data-state={server?.state}>
              <a href={hrefOf({ page: 'server', name })}>{name}</a> {server && <StateBadge state={server.state} />}
              {server && server.attempt > 0 && <span class="note"> attempt {server.attempt}</span>}{' '}
              <button
                type="button"
                class="quiet"
                disabled={busy}
                onClick={() => change(() => api.removeBotServer(bot.slug, name))}
              >
                Remove<span class="visually-hidden"> {name}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {others.length > 0 && (
        <form class="add-bot-server" onSubmit={add}>
          <label for="bot-add-server">Add a configured server</label>
          <select id="bot-add-server" value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
            <option value="">(choose one)</option>
            {others.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
          <button type="submit" disabled={busy || !adding}>
            Add to {bot.slug}
          </button>
        </form>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
