/**
 * Sign in with the admin token, when the one-time link `bnity serve` printed was not used
 * (or was used already). The token goes once to `POST /ui/sign-in`, which answers with the
 * session cookie; it is not kept by the page.
 * @module
 */
import { useState } from 'preact/hooks';
import { signInWithToken } from '../api.js';
import { ErrorNote } from '../components/error-note.js';

/** The page; `linkRefused` says the link that led here was spent or wrong. */
export function SignInPage({ linkRefused, onSignedIn }: { linkRefused: boolean; onSignedIn: (csrf: string) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const csrf = await signInWithToken(token);
      setToken('');
      onSignedIn(csrf);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to boternity</h1>
      {linkRefused && (
        <p class="error" role="alert">
          That sign-in link was used already, has expired (a link is good for an hour), or is not one this service
          printed. Sign in with the admin token instead, or run <code>bnity ui</code> for a new link.
        </p>
      )}
      <p>
        Open the link <code>bnity serve</code> printed (<code>web UI http://…/ui/sign-in?code=…</code>), or paste the
        admin token: it is in <code>$BOTERNITY_HOME/admin-token</code> or <code>BOTERNITY_ADMIN_TOKEN</code>.
      </p>
      <form class="card" onSubmit={submit}>
        <div class="field">
          <label for="admin-token">Admin token</label>
          <input
            id="admin-token"
            type="password"
            autocomplete="off"
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </div>
        <button type="submit">Sign in</button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}
