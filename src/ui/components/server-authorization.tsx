/**
 * A remote server's OAuth commands (issue 23, SPEC U2): **Authorize** while it needs
 * authorization; on its own page, once it holds tokens (`oauth.<name>` in the keystore) or
 * names an OAuth client, **Re-authorize** (a new grant, say for other scopes) and **Revoke
 * authorization** (asked twice; `DELETE /api/servers/{name}/authorization`: revoked where the
 * authorization server offers it, forgotten, and a connected server reconnects without it).
 * A started authorization shows what it asks for, the link to its page, and a box for the
 * address the browser ended on when the callback cannot be reached.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { useLiveEvent } from '../live.js';
import type { LiveServer } from '../server-list.js';
import { useLoad } from '../use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { PasteRedirectForm } from './paste-redirect-form.js';

/** Whether server `name` holds OAuth tokens or is configured with an OAuth client (page only). */
function useHasOAuth(api: ApiClient, name: string, asked: boolean): boolean {
  const loaded = useLoad(async () => {
    if (!asked) return false;
    const [{ credentials }, { server }] = await Promise.all([api.credentials(), api.server(name)]);
    return server.oauth !== undefined || credentials.some((c) => c.name === `oauth.${name}`);
  }, [name, asked]);
  useLiveEvent(
    (event) => asked && event.server === name && (event.type === 'connected' || event.type === 'needs_authorization'),
    loaded.reload,
  );
  return loaded.data === true;
}

/** The buttons and the started authorization; `say` and `fail` report to the commands' status line. */
export function ServerAuthorization({
  api,
  server,
  onPage,
  say,
  fail,
}: {
  api: ApiClient;
  server: LiveServer;
  onPage: boolean;
  say: (text: string) => void;
  fail: (text: string) => void;
}) {
  const { name, state } = server;
  const remote = server.transport !== 'stdio';
  const hasOAuth = useHasOAuth(api, name, onPage && remote);
  const [started, setStarted] = useState<{ url: string; asks: string } | null>(null);
  // A finished authorization connects the server: the started one is done.
  useLiveEvent(
    (event) => event.server === name && event.type === 'connected',
    () => setStarted(null),
  );
  const needs = state === 'needs_authorization';
  // Issue 23: what the authorization asks for is shown first; the page opens only from the link.
  const authorize = () => {
    fail('');
    api.authorize(name).then(
      (start) =>
        setStarted({
          url: start.url,
          asks: `${start.authorizationServer} asks for: ${start.scopes.join(' ') || '(no scope named)'}`,
        }),
      (failure: Error) => fail(`Could not authorize ${name}: ${failure.message}`),
    );
  };
  const revoke = () => {
    fail('');
    setStarted(null);
    api.revokeAuthorization(name).then(
      (done) =>
        say(
          done.forgotten
            ? `Authorization of ${name} ${done.revoked ? 'revoked at the authorization server and ' : ''}forgotten${done.note ? ` (${done.note})` : ''}.`
            : `${name} held no authorization.`,
        ),
      (failure: Error) => fail(`Could not revoke the authorization of ${name}: ${failure.message}`),
    );
  };
  if (!needs && !hasOAuth) return null;
  return (
    <>
      <button type="button" aria-label={`${needs ? 'Authorize' : 'Re-authorize'} ${name}`} onClick={authorize}>
        {needs ? 'Authorize' : 'Re-authorize'}
      </button>
      {hasOAuth && (
        <ConfirmButton
          label="Revoke authorization"
          question={`Revoke the authorization of ${name}?`}
          onConfirm={revoke}
        />
      )}
      {started && (
        <div class="authorization">
          <span class="note">
            {started.asks}{' '}
            <a href={started.url} target="_blank" rel="noopener noreferrer">
              Open the authorization page
            </a>
          </span>
          {onPage && (
            <PasteRedirectForm
              api={api}
              name={name}
              onDone={() => {
                setStarted(null);
                say(`${name} is authorized and connecting.`);
              }}
            />
          )}
        </div>
      )}
    </>
  );
}
