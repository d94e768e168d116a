/**
 * A server's settings on its page (issue 19): "Edit settings" opens a form prefilled from
 * `GET /api/servers/{name}` (secrets masked) with every field of the entry; saving sends
 * `PATCH` with only the fields changed. A refusal puts each of the API's issues next to its
 * field and changes nothing; a save shows the settings as the API now has them, while the
 * page's live state shows the server reconnecting with them.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Server } from '../api-types.js';
import { toolOfIssue } from '../settings-extras.js';
import { fieldOfIssue, type SettingsValues, settingsPatch, settingsValues } from '../settings-patch.js';
import { useLoad } from '../use-load.js';
import { ErrorNote } from './error-note.js';
import { SettingsFields } from './settings-fields.js';

/** The server and the names of its tools (none while it is not connected). */
async function loadSettings(api: ApiClient, name: string) {
  const [{ server }, tools] = await Promise.all([
    api.server(name),
    api.tools(name).then(
      (answer) => answer.tools.map((tool) => tool.name),
      () => [] as string[],
    ),
  ]);
  return { server, tools };
}

/** The form, once its server is loaded. */
function SettingsForm({
  api,
  initial,
  tools,
  onClose,
}: {
  api: ApiClient;
  initial: Server;
  tools: string[];
  onClose: () => void;
}) {
  const [server, setServer] = useState(initial);
  const [values, setValues] = useState<SettingsValues>(() => settingsValues(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: string) => (value: string) => {
    setNotice(null);
    setValues((v) => ({ ...v, [key]: value }));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const { patch, errors: found } = settingsPatch(server, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return setError('Not saved: fix the fields marked.');
    if (Object.keys(patch).length === 0) return setNotice('Nothing changed.');
    setBusy(true);
    try {
      const saved = await api.patchServer(server.name, patch);
      if (saved.ok) {
        setServer(saved.server);
        setValues(settingsValues(saved.server));
        setNotice('Saved.');
        return;
      }
      const byField: Record<string, string> = {};
      const known = new Set(Object.keys(values));
      for (const issue of saved.issues) {
        const field = fieldOfIssue(issue.field);
        const tool = field === 'toolOverrides' ? toolOfIssue(issue.field) : null;
        if (known.has(field) && !byField[field]) byField[field] = tool ? `${tool}: ${issue.message}` : issue.message;
      }
      setErrors(byField);
      setError(
        Object.keys(byField).length > 0
          ? 'Not saved (nothing was changed): fix the fields marked.'
          : `Not saved: ${saved.message}`,
      );
    } catch (failure) {
      setError(`Not saved: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="settings-form" onSubmit={submit} noValidate aria-label={`Settings of ${server.name}`}>
      <SettingsFields values={values} errors={errors} set={set} tools={tools} />
      <p class="commands">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
        <button type="button" onClick={onClose}>
          Close settings
        </button>
      </p>
      <ErrorNote error={error} />
      {notice && (
        <p class="note" role="status">
          {notice}
        </p>
      )}
    </form>
  );
}

/** The section on the server's page. */
export function ServerSettings({ api, name }: { api: ApiClient; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section class="card settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      {open ? (
        <LoadedForm api={api} name={name} onClose={() => setOpen(false)} />
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          Edit settings
        </button>
      )}
    </section>
  );
}

/** The form with its server read afresh each time it opens. */
function LoadedForm({ api, name, onClose }: { api: ApiClient; name: string; onClose: () => void }) {
  const loaded = useLoad(() => loadSettings(api, name), [name]);
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (!loaded.data) return <p class="note">Loading the settings…</p>;
  return <SettingsForm api={api} initial={loaded.data.server} tools={loaded.data.tools} onClose={onClose} />;
}
