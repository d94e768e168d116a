/**
 * The second half of an authorization for a browser that cannot reach the service's
 * `/oauth/callback` (the service on another machine): paste the address the browser ended
 * on, and the service finishes with it (`POST /api/servers/{name}/authorize/complete`), as
 * `bnity mcp auth --paste` does. A bad address is one line under the field, the text kept.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { TextField } from './text-field.js';

/** Why `text` is not an address to paste, or null. */
export function pastedAddressError(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'paste the address the browser ended on';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'not an address: paste the whole address the browser ended on (http://…)';
  }
  if (!url.searchParams.has('state'))
    return 'this address has no state=…: paste the one the authorization page sent you to';
  return null;
}

/** The form; `onDone` runs once the service took the address. */
export function PasteRedirectForm({ api, name, onDone }: { api: ApiClient; name: string; onDone: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const id = `paste-${name}`.replace(/[^\w-]/g, '_');
  const submit = (event: Event) => {
    event.preventDefault();
    const wrong = pastedAddressError(text);
    setError(wrong ?? undefined);
    if (wrong) return;
    setBusy(true);
    api.completeAuthorization(name, text.trim()).then(
      () => {
        setBusy(false);
        onDone();
      },
      (failure: Error) => {
        setBusy(false);
        setError(failure.message);
      },
    );
  };
  return (
    <form class="paste-redirect" onSubmit={submit} noValidate aria-label={`Finish authorizing ${name}`}>
      <TextField
        id={id}
        label="Or paste the address you ended on"
        hint="when the page you end on cannot be reached (the service runs elsewhere): copy its whole address here"
        value={text}
        error={error}
        onInput={(value) => {
          setText(value);
          setError(undefined);
        }}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Finishing…' : 'Finish authorization'}
      </button>
    </form>
  );
}
