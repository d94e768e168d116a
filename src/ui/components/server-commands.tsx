/**
 * A server's commands, the same on its row and on its own page: connect (when disabled),
 * connect now (while it waits on its backoff: a retry at once, as `bnity mcp connect` does) or
 * disconnect, and remove after a confirmation. What a command set going is said next to the
 * buttons for as long as it is true: "Disconnecting memory…" goes when the server's state
 * changes, a failure stays until the next command. The OAuth commands are in
 * `server-authorization.tsx`.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { LiveServer } from '../server-list.js';
import { type Notice, noticeShown } from '../server-list.js';
import { ConfirmButton } from './confirm-button.js';
import { ServerAuthorization } from './server-authorization.js';

/** The buttons; `onRemoved` runs once the API removed the server. */
export function ServerCommands({
  api,
  server,
  onRemoved,
  onPage = false,
}: {
  api: ApiClient;
  server: LiveServer;
  onRemoved?: () => void;
  /** On the server's own page: the OAuth commands beyond Authorize are offered too. */
  onPage?: boolean;
}) {
  const { name, state } = server;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  // The notice is set before the request: the event that ends it may come before the answer.
  const run = (text: string, label: string, command: () => Promise<unknown>, then?: () => void) => {
    setError(null);
    setSaid(null);
    setNotice({ server: name, text, while: [state] });
    command().then(then, (failure: Error) => {
      setNotice(null);
      setError(`Could not ${label}: ${failure.message}`);
    });
  };
  const connect = state === 'disabled';
  const verb = connect ? 'Connect' : 'Disconnect';
  const connectNow = () => run(`Connecting ${name}…`, `connect ${name}`, () => api.connect(name));
  return (
    <>
      <ServerAuthorization
        api={api}
        server={server}
        onPage={onPage}
        say={(text) => {
          setError(null);
          setSaid(text);
        }}
        fail={(text) => {
          setSaid(null);
          setError(text || null);
        }}
      />
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
        what={name}
        question={`Remove ${name}?`}
        onConfirm={() => run(`Removing ${name}…`, `remove ${name}`, () => api.removeServer(name), onRemoved)}
      />
      <span class="note" role="status">
        {said ?? noticeShown(notice, [server])}
      </span>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
