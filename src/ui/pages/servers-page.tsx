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
        {server.state === 'disabled' ? (
          <button
            type="button"
            aria-label={`Connect ${name}`}
            onClick={() => act(`connect ${name}`, () => api.connect(name))}
          >
            Connect
          </button>
        ) : (
          <button
            type="button"
            aria-label={`Disconnect ${name}`}
            onClick={() => act(`disconnect ${name}`, () => api.disconnect(name))}
          >
            Disconnect
          </button>
        )}
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
      <div class="table-wrap">
        <table class="servers">
          <caption class="visually-hidden">Servers and their live state</caption>
          <thead>
            <tr>
              <th scope="col">server</th>
              <th scope="col">state</th>
              <th scope="col">last error</th>
              <th scope="col">ping</th>
              <th scope="col">tools / resources / prompts</th>
              <th scope="col">
                <span class="visually-hidden">actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {live.servers.map((server) => (
              <ServerRow key={server.name} api={api} server={server} act={act} />
            ))}
          </tbody>
        </table>
      </div>
      {live.loaded && live.servers.length === 0 && <p>No server is configured yet: add one below.</p>}
      <AddServerForm api={api} onAdded={(name) => setNotice(`Added ${name}: it is connecting.`)} />
    </>
  );
}
