/**
 * Every server with its live state (from `/api/events`, no polling): state, attempt and the
 * countdown to the next retry (the attempt only while it is still trying), the last error, ping
 * latency (only while connected), what it offers and how many of its tools are held; connect,
 * disconnect and remove each; add one, or import several from another client's config. Fixed column widths: an error appearing in a row wraps
 * in its cell instead of moving the columns. In a fleet (cluster mode) a replica column says
 * whose connections these are: this page's replica's; the Cluster page shows every replica's.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { AddServerForm } from '../components/add-server-form.js';
import { Countdown } from '../components/countdown.js';
import { DataTable } from '../components/data-table.js';
import { ServerCommands } from '../components/server-commands.js';
import { StateBadge } from '../components/state-badge.js';
import { lazyPage } from '../lazy-page.js';
import { useLive } from '../live.js';
import { attemptShown, type LiveServer, type Notice, noticeShown, pingShown } from '../server-list.js';
import { useFleet } from '../use-fleet.js';
import { hrefOf } from '../use-route.js';

const ImportServers = lazyPage(() => import('../components/import-servers.js').then((m) => m.ImportServers));

/** One server's row; its data attributes let tests and tools read the state without parsing text. */
function ServerRow({
  api,
  server,
  held,
  replica,
}: {
  api: ApiClient;
  server: LiveServer;
  held: number;
  /** In a fleet, the replica whose connection this is; undefined on a lone service (no column). */
  replica: string | null | undefined;
}) {
  const { name } = server;
  const attempt = attemptShown(server);
  const ping = pingShown(server);
  return (
    <tr data-server={name} data-state={server.state} data-event-at={server.eventAt ?? undefined} data-held={held}>
      <th scope="row">
        <a href={hrefOf({ page: 'server', name })}>{name}</a>
        <div class="note">
          {server.transport}
          {server.pid !== null && ` · pid ${server.pid}`}
        </div>
      </th>
      <td>
        <StateBadge state={server.state} />
        {attempt !== null && <div class="note attempt">attempt {attempt}</div>}
        {server.state === 'reconnecting' && server.nextRetryAt && (
          <div class="note">
            retry <Countdown until={server.nextRetryAt} />
          </div>
        )}
        {server.state === 'disabled' && server.disabledReason && <div class="note">{server.disabledReason}</div>}
        {server.flooding && <div class="note">flooding notifications: {server.droppedNotifications} dropped</div>}
      </td>
      <td class="error-cell" data-label="last error">
        {server.lastError}
      </td>
      <td class="num" data-label="ping">
        {ping === null ? '–' : `${ping} ms`}
      </td>
      <td class="num" data-label="tools / resources / prompts">
        {server.toolCount} / {server.resourceCount} / {server.promptCount}
        {held > 0 && (
          <div>
            <a class="held" href="#/quarantines">
              {held} held<span class="visually-hidden"> tools of {name}</span>
            </a>
          </div>
        )}
      </td>
      {replica !== undefined && (
        <td data-label="replica">
          <code>{replica ?? '–'}</code>
        </td>
      )}
      <td class="actions">
        <ServerCommands api={api} server={server} />
      </td>
    </tr>
  );
}

/** The page. */
export function ServersPage({ api }: { api: ApiClient }) {
  const live = useLive();
  const [added, setAdded] = useState<Notice | null>(null);
  const [importing, setImporting] = useState(false);
  const connected = live.servers.filter((s) => s.state === 'connected').length;
  // A fleet: every replica runs its own connections, and this list is one replica's.
  const fleet = useFleet(api);
  return (
    <>
      <p class="summary" aria-live="polite">
        {live.loaded ? `${connected} of ${live.servers.length} connected` : 'Loading…'}
      </p>
      <p class="note" role="status">
        {noticeShown(added, live.servers)}
      </p>
      {fleet && (
        <p class="note fleet-note">
          A fleet: these are the connections of replica <code>{live.replica ?? '?'}</code>, the one serving this page;
          each replica runs its own. <a href={hrefOf({ page: 'cluster' })}>Cluster</a> shows every replica's servers.
        </p>
      )}
      <DataTable
        name="servers"
        caption="Servers and their live state"
        hideCaption
        columns={[
          'server',
          'state',
          'last error',
          'ping',
          'tools / resources / prompts',
          ...(fleet ? ['replica'] : []),
          <span key="actions" class="visually-hidden">
            actions
          </span>,
        ]}
        classes={
          fleet
            ? { 0: 'c-server', 1: 'c-state', 3: 'num c-ping', 4: 'num c-counts', 5: 'c-replica', 6: 'c-actions' }
            : { 0: 'c-server', 1: 'c-state', 3: 'num c-ping', 4: 'num c-counts', 5: 'c-actions' }
        }
      >
        {live.servers.map((server) => (
          <ServerRow
            key={server.name}
            api={api}
            server={server}
            held={live.held.get(server.name) ?? 0}
            replica={fleet ? live.replica : undefined}
          />
        ))}
      </DataTable>
      {live.loaded && live.servers.length === 0 && <p>No server is configured yet: add one below.</p>}
      <AddServerForm
        api={api}
        onAdded={(name) =>
          setAdded({ server: name, text: `Added ${name}: it is connecting…`, while: [null, 'connecting'] })
        }
      />
      <section aria-labelledby="import-title">
        <h2 id="import-title">Import servers</h2>
        <button type="button" aria-expanded={importing} onClick={() => setImporting(!importing)}>
          {importing ? 'Close import' : 'Import from Claude Desktop, Cursor or VS Code'}
        </button>
        {importing && <ImportServers api={api} />}
      </section>
    </>
  );
}
