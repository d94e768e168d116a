/**
 * The bots (SPEC B1, A3): each with where it lives (the registry, the config file, or both),
 * its provider, and how many servers its view has; a bot's name opens its tab. **New bot**
 * opens the form that creates one (`POST /api/bots`), then goes to its tab. The list follows
 * the bots' events (`bot_created`, `bot_updated`, `bot_deleted`) and config changes.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { BotForm } from '../components/bot-form.js';
import { DataTable } from '../components/data-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';
import { hrefOf } from '../use-route.js';

/** Events after which the list is read again: a config change may add, remove or change a bot's view. */
const LIST_CHANGES = new Set(['config_applied', 'bot_created', 'bot_updated', 'bot_deleted']);

/** The page. */
export function BotsPage({ api }: { api: ApiClient }) {
  const list = useLoad(() => api.bots(), []);
  const [creating, setCreating] = useState(false);
  useLiveEvent((event) => LIST_CHANGES.has(event.type), list.reload);
  const bots = list.data?.bots ?? [];
  return (
    <>
      {creating ? (
        <BotForm
          api={api}
          onCancel={() => setCreating(false)}
          onSaved={(bot) => {
            location.hash = hrefOf({ page: 'bot', slug: bot.slug });
          }}
        />
      ) : (
        <button type="button" onClick={() => setCreating(true)}>
          New bot
        </button>
      )}
      <ErrorNote error={list.error} />
      {list.data && bots.length === 0 && (
        <p>No bot yet: New bot makes one (or the MCP tool create_bot; see docs/bots.md).</p>
      )}
      <DataTable
        name="bots"
        caption="Bots"
        hideCaption
        columns={['bot', 'lives in', 'provider', 'servers', 'note']}
        classes={{ 3: 'num' }}
      >
        {bots.map((bot) => (
          <tr key={bot.slug} data-bot={bot.slug}>
            <th scope="row">
              <a href={hrefOf({ page: 'bot', slug: bot.slug })}>{bot.slug}</a>
              {bot.profile && <div class="note">{bot.profile.name}</div>}
            </th>
            <td>{bot.source === 'both' ? 'registry and config' : bot.source}</td>
            <td>{bot.profile?.provider ? bot.profile.provider.model : '–'}</td>
            <td class="num">{bot.servers.length}</td>
            <td class="note">{bot.warning ?? bot.profile?.description}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
