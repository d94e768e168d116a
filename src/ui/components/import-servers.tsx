/**
 * Import servers from another client's config (SPEC A4, C1; what `bnity mcp import` does): a
 * Claude Desktop, Cursor or VS Code file chosen or its JSON pasted, read here into its servers
 * and sent as `POST /api/servers/import` (`servers`, and `force` to replace names already
 * present). The answer says what was added, skipped, replaced, renamed and which env values
 * went to the keystore; a bad file or a refusal is one line under the JSON, and the text stays.
 * Loaded only when opened, so the servers list's first load does not carry it.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { clientConfigServers } from '../client-config-servers.js';
import type { ImportResult } from '../operator-api.js';

const ID = 'import-json';

/** The lines saying what an import did. */
function summary(result: ImportResult): string[] {
  const list = (names: string[]) => names.join(', ');
  return [
    result.added.length ? `Added ${list(result.added)}.` : 'Nothing added.',
    ...(result.skipped.length ? [`Skipped (already present; tick Replace to replace): ${list(result.skipped)}.`] : []),
    ...(result.replaced.length ? [`Replaced ${list(result.replaced)}.`] : []),
    ...result.renamed.map((r) => `Renamed "${r.from}" to ${r.to} (a server name takes letters, digits, _ . -).`),
    ...result.movedSecrets.map(
      (m) => `${m.server}: ${m.variable} moved to the keystore as ${m.credential} (the config names it).`,
    ),
  ];
}

/** The panel. */
export function ImportServers({ api }: { api: ApiClient }) {
  const [text, setText] = useState('');
  const [force, setForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const choose = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    setError(null);
    try {
      setText(await file.text());
    } catch (failure) {
      setError(`could not read ${file.name}: ${(failure as Error).message}`);
    }
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setResult(null);
    let servers: ReturnType<typeof clientConfigServers>;
    try {
      servers = clientConfigServers(text);
    } catch (failure) {
      return setError((failure as Error).message);
    }
    setBusy(true);
    try {
      setResult(await api.importServers({ servers, force }));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card import-servers" aria-label="Import servers" onSubmit={submit} noValidate>
      <p class="note">
        From a Claude Desktop (<code>claude_desktop_config.json</code>), Cursor (<code>.cursor/mcp.json</code>) or VS
        Code (<code>.vscode/mcp.json</code>) config: choose the file, or paste its JSON. Secret-looking env values
        (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*) go to the keystore.
      </p>
      <div class="field">
        <label for="import-file">Config file</label>
        <input id="import-file" type="file" accept=".json,.jsonc,application/json" onChange={choose} />
      </div>
      <div class="field">
        <label for={ID}>Config JSON</label>
        <textarea
          id={ID}
          class="mono"
          rows={8}
          spellcheck={false}
          value={text}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${ID}-error` : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {error && (
          <p id={`${ID}-error`} class="error field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <label class="choice">
        <input type="checkbox" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} /> Replace servers
        whose names are already present
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Importing…' : 'Import'}
      </button>
      <div role="status" class="import-result">
        {result && (
          <ul>
            {summary(result).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </div>
    </form>
  );
}
