/**
 * A server's commands, the same on its row and on its own page: connect (when disabled),
 * connect now (while it waits on its backoff: a retry at once, as `bnity mcp connect` does) or
 * disconnect, and remove after a confirmation. What a command set going is said next to the
 * buttons for as long as it is true: "Disconnecting memory…" goes when the server's state
 * changes, a failure stays until the next command.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { LiveServer } from '../server-list.js';
import { type Notice, noticeShown } from '../server-list.js';
import { ConfirmButton } from './confirm-button.js';

/** The buttons; `onRemoved` runs once the API removed the server. */
export function ServerCommands({
  api,
  server,
  onRemoved,
}: {
  api: ApiClient;
  server: LiveServer;
  onRemoved?: () => void;
}) {
  const { name, state } = server;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The notice is set before the request: the event that ends it may come before the answer.
  const run = (text: string, label: string, command: () => Promise<unknown>, then?: () => void) => {
    setError(null);
    setNotice({ server: name, text, while: [state] });
    command().then(then, (failure: Error) => {
      setNotice(null);
      setError(`Could not ${label}: ${failure.message}`);
    });
  };
  const connect = state === 'disabled';
  const verb = connect ? 'Connect' : 'Disconnect';
  const connectNow = () => run(`Connecting ${name}…`, `connect ${name}`, () => api.connect(name));
  const [authorization, setAuthorization] = useState<{ url: string; asks: string } | null>(null);
  // Issue 23: what the authorization asks for is shown first; the page opens only from the link.
  const authorize = () => {
    setError(null);
    api.authorize(name).then(
      (started) =>
        setAuthorization({
          url: started.url,
          asks: `${started.authorizationServer} asks for: ${started.scopes.join(' ') || '(no scope named)'}`,
        }),
      (failure: Error) => setError(`Could not authorize ${name}: ${failure.message}`),
    );
  };
  return (
    <>
      {state === 'needs_authorization' && (
        <button type="button" aria-label={`Authorize ${name}`} onClick={authorize}>
          Authorize
        </button>
      )}
      {state === 'needs_authorization' && authorization && (
        <span class="note">
          {authorization.asks}{' '}
          <a href={authorization.url} target="_blank" rel="noopener noreferrer">
            Open the authorization page
          </a>
        </span>
      )}
      {state === 'reconnecting' && (
        <button type="button" aria-label={`Connect ${name} now`} onClick={connectNow}>
          Connect now
        </button>
      )}
      <button
        type="button"
        aria-label={`${verb} ${name}`}
        onClick={() =>
          connect ? connectNow() : run(`Disconnecting ${name}…`, `disconnect ${name}`, () => api.disconnect(name))
        }
      >
        {verb}
      </button>
      <ConfirmButton
        label="Remove"
        question={`Remove ${name}?`}
        onConfirm={() => run(`Removing ${name}…`, `remove ${name}`, () => api.removeServer(name), onRemoved)}
      />
      <span class="note" role="status">
        {noticeShown(notice, [server])}
      </span>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
