/**
 * Add a server, from a bundled preset (with the arguments and variables it needs) or by hand
 * (a command to run over stdio, or a URL over Streamable HTTP or SSE). It posts
 * `POST /api/servers`; the new row then appears through the event stream. A preset that
 * needs a keystore credential names it as the entry's `credentialKey`; when the keystore
 * lacks it, the form asks for its value right there and stores it (`PUT /api/credentials`)
 * before the add, so the server's first connect has it.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { NewServer, Preset } from '../api-types.js';
import { lines, pairs } from '../entry-lines.js';
import { useLoad } from '../use-load.js';
import { ErrorNote } from './error-note.js';
import { TextField } from './text-field.js';

type Mode = 'preset' | 'stdio' | 'http' | 'sse';

/** One text field of the form. */
type FieldSpec = { key: string; label: string; area?: boolean; required?: boolean; hint?: string };

const ARGS: FieldSpec = { key: 'args', label: 'Arguments', area: true, hint: 'one per line' };
const ENV: FieldSpec = { key: 'env', label: 'Environment', area: true, hint: 'NAME=value, one per line' };
const URL_FIELD: FieldSpec = { key: 'url', label: 'URL', required: true };
const HEADERS: FieldSpec = { key: 'headers', label: 'Headers', area: true, hint: 'Name: value, one per line' };

/** The text fields each way of adding asks for (after the name, and a preset's choice). */
const TEXT_FIELDS: Readonly<Record<Mode, readonly FieldSpec[]>> = {
  preset: [ARGS, ENV],
  stdio: [{ key: 'command', label: 'Command', required: true }, ARGS, ENV],
  http: [URL_FIELD, HEADERS],
  sse: [URL_FIELD, HEADERS],
};

/** The request body the form describes; `preset` is the chosen preset's description. */
function toRequest(mode: Mode, v: Record<string, string>, preset?: Preset): NewServer {
  const args = lines(v.args ?? '');
  const env = pairs(v.env ?? '', '=', 'environment');
  if (mode === 'preset') {
    const credential = preset?.needs.credential;
    const common = { name: v.name ?? '', preset: v.preset ?? '', ...(credential ? { credentialKey: credential } : {}) };
    // A remote preset at another address (a self-hosted or enterprise instance of the same server).
    if (preset?.url) return { ...common, ...(v.url?.trim() ? { url: v.url.trim(), type: preset.type } : {}) };
    return { ...common, ...(args.length ? { args } : {}), ...(env ? { env } : {}) };
  }
  if (mode === 'stdio')
    return { name: v.name ?? '', command: v.command ?? '', ...(args.length ? { args } : {}), ...(env ? { env } : {}) };
  const headers = pairs(v.headers ?? '', ':', 'headers');
  return { name: v.name ?? '', type: mode, url: v.url ?? '', ...(headers ? { headers } : {}) };
}

/** The form; `onAdded` gets the new server's name. */
export function AddServerForm({ api, onAdded }: { api: ApiClient; onAdded: (name: string) => void }) {
  const presets = useLoad(() => api.presets(), []);
  const stored = useLoad(() => api.credentials(), []);
  const [secret, setSecret] = useState('');
  const [secretError, setSecretError] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('preset');
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: string) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const chosen = mode === 'preset' ? presets.data?.presets.find((p) => p.name === values.preset) : undefined;
  const needed = chosen?.needs.credential;
  // Asked for only when the keystore lacks it (or the list could not be read).
  const missing = needed && !stored.data?.credentials.some((c) => c.name === needed) ? needed : undefined;
  const fields = chosen?.url ? [{ key: 'url', label: 'URL', hint: `empty: ${chosen.url}` }] : TEXT_FIELDS[mode];

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSecretError(null);
    setBusy(true);
    try {
      if (missing) {
        try {
          await api.setCredential(missing, secret);
        } catch (failure) {
          setSecretError((failure as Error).message);
          return;
        }
        setSecret('');
        stored.reload();
      }
      const { server } = await api.addServer(toRequest(mode, values, chosen));
      setValues({});
      onAdded(server.name);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card add-server" onSubmit={submit} aria-labelledby="add-title">
      <h2 id="add-title">Add a server</h2>
      <fieldset>
        <legend>How</legend>
        {(
          [
            ['preset', 'From a preset'],
            ['stdio', 'A command (stdio)'],
            ['http', 'A URL (Streamable HTTP)'],
            ['sse', 'A URL (legacy SSE)'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="choice">
            <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <TextField
        id="add-name"
        label="Name"
        required
        value={values.name ?? ''}
        onInput={set('name')}
        hint="letters, digits, _ . -"
      />
      {mode === 'preset' && (
        <div class="field">
          <label for="add-preset">Preset</label>
          <select
            id="add-preset"
            required
            value={values.preset ?? ''}
            onChange={(e) => set('preset')(e.currentTarget.value)}
          >
            <option value="">(choose one)</option>
            {presets.data?.presets.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
                {p.installed ? '' : ' (downloads its package)'}
              </option>
            ))}
          </select>
          {chosen && (
            <span class="note">
              {chosen.description}
              {chosen.needs.args && ` Arguments: ${chosen.needs.args}.`}
              {chosen.needs.env && ` Variables: ${chosen.needs.env.join(', ')}.`}
              {needed && ` Credential: ${needed}${missing ? '' : ' (set)'}.`}
            </span>
          )}
          <ErrorNote error={presets.error} />
        </div>
      )}
      {missing && (
        <div class="field">
          <label for="add-credential">Set credential {missing}</label>
          <input
            id="add-credential"
            type="password"
            required
            autocomplete="new-password"
            value={secret}
            aria-describedby="add-credential-hint"
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
          <span id="add-credential-hint" class="note">
            stored in the keystore (never shown again), then sent as the server's bearer
          </span>
          <ErrorNote error={secretError} />
        </div>
      )}
      {fields.map((field) => (
        <TextField
          key={field.key}
          id={`add-${field.key}`}
          label={field.label}
          area={field.area}
          required={field.required}
          hint={field.hint}
          value={values[field.key] ?? ''}
          onInput={set(field.key)}
        />
      ))}
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add server'}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
