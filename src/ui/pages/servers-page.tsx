/**
 * Every server with its live state (from `/api/events`, no polling): state, attempt and the
 * countdown to the next retry, the last error, ping latency, and what it offers; connect,
 * disconnect and remove each; add one.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { AddServerForm } from '../components/add-server-form.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Countdown } from '../components/countdown.js';
import { DataTable } from '../components/data-table.js';
import { ErrorNote } from '../components/error-note.js';
import { StateBadge } from '../components/state-badge.js';
import { useLive } from '../live.js';
import type { LiveServer } from '../server-list.js';
import { hrefOf } from '../use-route.js';

/** What a row's buttons do. */
type Act = (label: string, run: () => Promise<unknown>) => void;

/** One server's row; its data attributes let tests and tools read the state without parsing text. */
function ServerRow({ api, server, act }: { api: ApiClient; server: LiveServer; act: Act }) {
  const { name } = server;
  const [verb, command] =
    server.state === 'disabled' ? (['Connect', api.connect] as const) : (['Disconnect', api.disconnect] as const);
  return (
    <tr data-server={name} data-state={server.state} data-event-at={server.eventAt ?? undefined}>
      <th scope="row">
        <a href={hrefOf({ page: 'server', name })}>{name}</a>
        <div class="note">
          {server.transport}
          {server.pid !== null && ` · pid ${server.pid}`}
        </div>
      </th>
      <td>
        <StateBadge state={server.state} />
        {server.attempt > 0 && <div class="note attempt">attempt {server.attempt}</div>}
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
        {server.pingLatencyMs === null ? '–' : `${Math.round(server.pingLatencyMs)} ms`}
      </td>
      <td class="num" data-label="tools / resources / prompts">
        {server.toolCount} / {server.resourceCount} / {server.promptCount}
      </td>
      <td class="actions">
        <button
          type="button"
          aria-label={`${verb} ${name}`}
          onClick={() => act(`${verb.toLowerCase()} ${name}`, () => command(name))}
        >
          {verb}
        </button>
        <ConfirmButton
          label="Remove"
          question={`Remove ${name}?`}
          onConfirm={() => act(`remove ${name}`, () => api.removeServer(name))}
        />
      </td>
    </tr>
  );
}

/** The page. */
export function ServersPage({ api }: { api: ApiClient }) {
  const live = useLive();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const act: Act = (label, run) => {
    setError(null);
    run().then(
      () => setNotice(`Done: ${label}.`),
      (failure: Error) => setError(`Could not ${label}: ${failure.message}`),
    );
  };
  const connected = live.servers.filter((s) => s.state === 'connected').length;
  return (
    <>
      <p class="summary" aria-live="polite">
        {live.loaded ? `${connected} of ${live.servers.length} connected` : 'Loading…'}
      </p>
      <ErrorNote error={error} />
      <p class="note" role="status">
        {notice}
      </p>
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
          <span key="actions" class="visually-hidden">
            actions
          </span>,
        ]}
      >
        {live.servers.map((server) => (
          <ServerRow key={server.name} api={api} server={server} act={act} />
        ))}
      </DataTable>
      {live.loaded && live.servers.length === 0 && <p>No server is configured yet: add one below.</p>}
      <AddServerForm api={api} onAdded={(name) => setNotice(`Added ${name}: it is connecting.`)} />
    </>
  );
}
