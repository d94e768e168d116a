/**
 * Tokens for the MCP endpoints (X1): make one (its secret is shown this once, with a copy
 * button and a connection snippet per client), list them (never their secrets), revoke one (its sessions end).
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { NewToken } from '../api-types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ConnectSnippets } from '../components/connect-snippets.js';
import { CopyButton } from '../components/copy-button.js';
import { DataTable } from '../components/data-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLoad } from '../use-load.js';

/** The page. */
export function TokensPage({ api }: { api: ApiClient }) {
  const tokens = useLoad(() => api.tokens(), []);
  const bots = useLoad(async () => (await api.bots()).bots.map((bot) => bot.slug), []);
  const [name, setName] = useState('');
  const [bot, setBot] = useState('');
  const [made, setMade] = useState<(NewToken & { name: string; bot?: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** A failed revoke's error: shown over the table it happened in, not in the New token form. */
  const [revokeError, setRevokeError] = useState<string | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const token = await api.createToken({ name: name.trim(), ...(bot ? { bot } : {}) });
      setMade({ ...token, name: name.trim(), ...(bot ? { bot } : {}) });
      setName('');
      tokens.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const revoke = (id: string) => {
    setRevokeError(null);
    return api
      .revokeToken(id)
      .then(tokens.reload, (failure: Error) => setRevokeError(`Could not revoke: ${failure.message}`));
  };
  return (
    <>
      <form class="card" onSubmit={create} aria-labelledby="new-token-title">
        <h2 id="new-token-title">New token</h2>
        <div class="field">
          <label for="token-name">Name</label>
          <input
            id="token-name"
            type="text"
            required
            maxLength={100}
            autocomplete="off"
            value={name}
            aria-describedby="token-name-hint"
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <span id="token-name-hint" class="note">
            who will use it, e.g. claude-code
          </span>
        </div>
        <div class="field">
          <label for="token-bot">Bot</label>
          <select id="token-bot" value={bot} onChange={(e) => setBot(e.currentTarget.value)}>
            <option value="">none: every server on /mcp</option>
            {bots.data?.map((slug) => (
              <option key={slug} value={slug}>
                {slug}: only its view
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Create token</button>
        <ErrorNote error={error} />
      </form>
      {made && (
        <section class="card secret" aria-labelledby="made-title">
          <h2 id="made-title">Token {made.name}</h2>
          <p>Copy it now: it is not shown again.</p>
          <p>
            <code id="new-token" class="token">
              {made.token}
            </code>{' '}
            <CopyButton text={made.token} target="new-token" />
          </p>
          <ConnectSnippets token={made.token} bot={made.bot} />
          <button type="button" onClick={() => setMade(null)}>
            Done, hide it
          </button>
        </section>
      )}
      <ErrorNote error={tokens.error} />
      <ErrorNote error={revokeError} />
      <DataTable
        name="tokens"
        caption="Tokens"
        columns={['name', 'bot', 'starts with', 'created', 'last used', 'status']}
      >
        {tokens.data?.tokens.map((token) => (
          <tr key={token.id} data-token={token.name}>
            <th scope="row">{token.name}</th>
            <td>{token.bot ?? '–'}</td>
            <td>
              <code>{token.prefix}…</code>
            </td>
            <td>{new Date(token.createdAt).toLocaleString()}</td>
            <td>{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : 'never'}</td>
            <td>
              {token.revokedAt ? (
                `revoked ${new Date(token.revokedAt).toLocaleString()}`
              ) : (
                <ConfirmButton
                  label="Revoke"
                  what={token.name}
                  question={`Revoke ${token.name}?`}
                  onConfirm={() => revoke(token.id)}
                />
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
