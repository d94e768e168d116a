/**
 * The keystore's credentials (C6), write-only: set one (its value typed into a password
 * input, sent once and cleared, never shown again), list them (names only: the API has no
 * way to read a value back) and remove one after a confirmation. What the API refuses is
 * said in its one line next to the field it is about.
 * @module
 */
import { useState } from 'preact/hooks';
import { type ApiClient, ApiError } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { DataTable } from '../components/data-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLoad } from '../use-load.js';

// biome-ignore lint/suspicious/noTemplateCurlyInString: the config's syntax for a keystore reference, not a template
const SECRET_REFERENCE = '${secret:NAME}';

/** A refusal, and whether it is about the name: the API's `issues` say so (the keystore's name check); it goes next to that field. */
type Refusal = { readonly message: string; readonly aboutName: boolean };
const refusalOf = (failure: unknown): Refusal => ({
  message: (failure as Error).message,
  aboutName: failure instanceof ApiError && failure.issues.some((issue) => issue.field === 'name'),
});

/** The page. */
export function CredentialsPage({ api }: { api: ApiClient }) {
  const list = useLoad(() => api.credentials(), []);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<Refusal | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    setBusy(true);
    try {
      await api.setCredential(name.trim(), value);
      // The value leaves the page as soon as it is stored.
      setValue('');
      setName('');
      setSaved(name.trim());
      list.reload();
    } catch (failure) {
      setError(refusalOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const remove = (target: string) =>
    api
      .removeCredential(target)
      .then(list.reload, (failure: Error) =>
        setError({ message: `Could not remove ${target}: ${failure.message}`, aboutName: false }),
      );
  const nameError = error?.aboutName ? error.message : null;
  const otherError = error && !error.aboutName ? error.message : null;
  return (
    <>
      <form class="card" onSubmit={save} aria-labelledby="set-credential-title">
        <h2 id="set-credential-title">Set a credential</h2>
        <p class="note">
          Stored encrypted in the keystore and never shown again. A server names it as its credential key (sent as its
          bearer) or as <code>{SECRET_REFERENCE}</code> in its environment; a bot as its provider's key.
        </p>
        <div class="field">
          <label for="credential-name">Name</label>
          <input
            id="credential-name"
            type="text"
            required
            autocomplete="off"
            spellcheck={false}
            value={name}
            aria-invalid={nameError ? 'true' : undefined}
            aria-describedby={nameError ? 'credential-name-error' : 'credential-name-hint'}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          {nameError ? (
            <p id="credential-name-error" class="error" role="alert">
              {nameError}
            </p>
          ) : (
            <span id="credential-name-hint" class="note">
              1 to 64 of A-Z a-z 0-9 _ . -, e.g. github-token
            </span>
          )}
        </div>
        <div class="field">
          <label for="credential-value">Value</label>
          <input
            id="credential-value"
            type="password"
            required
            autocomplete="new-password"
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
          <ErrorNote error={otherError} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save credential'}
        </button>
        {saved && (
          <p class="note" role="status">
            Saved {saved}.
          </p>
        )}
      </form>
      <ErrorNote error={list.error} />
      {list.data?.credentials.length === 0 && <p class="note">No credentials yet.</p>}
      <DataTable
        name="credentials"
        caption="Credentials"
        columns={['name', <span class="visually-hidden">remove</span>]}
      >
        {list.data?.credentials.map((credential) => (
          <tr key={credential.name} data-credential={credential.name}>
            <th scope="row">{credential.name}</th>
            <td>
              <ConfirmButton
                label="Remove"
                what={credential.name}
                question={`Remove ${credential.name}?`}
                onConfirm={() => remove(credential.name)}
              />
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
