/**
 * The bots (SPEC B1, A3): each with where it lives (the registry, the config file, or both),
 * its provider, and how many servers its view has; a bot's name opens its tab.
 * @module
 */
import type { ApiClient } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';
import { hrefOf } from '../use-route.js';

/** The page. */
export function BotsPage({ api }: { api: ApiClient }) {
  const list = useLoad(() => api.bots(), []);
  // A config change may add, remove or change a bot's view.
  useLiveEvent((event) => event.type === 'config_applied', list.reload);
  const bots = list.data?.bots ?? [];
  return (
    <>
      <ErrorNote error={list.error} />
      {list.data && bots.length === 0 && (
        <p>No bot yet: make one with POST /api/bots or the MCP tool create_bot (see docs/bots.md).</p>
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
