/**
 * The audit log (X7) with the API's filters (server, bot, client, direction, event, tool,
 * since, until, limit), newest first. Hashes stand for payloads, which are not stored.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { AuditQuery } from '../api-types.js';
import { AuditTable } from '../components/audit-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLoad } from '../use-load.js';

const TEXT_FILTERS = ['server', 'bot', 'client', 'event', 'tool'] as const;

/** A `datetime-local` value as ISO 8601 (the API reads either that or epoch ms). */
const toIso = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);

/** The page. */
export function AuditPage({ api }: { api: ApiClient }) {
  const [form, setForm] = useState<Record<string, string>>({ limit: '100' });
  const [filters, setFilters] = useState<AuditQuery>({ limit: '100' });
  const log = useLoad(() => api.audit(filters), [filters]);
  const count = log.data?.entries.length ?? 0;
  const set = (key: string) => (e: Event) =>
    setForm((f) => ({ ...f, [key]: (e.currentTarget as HTMLInputElement).value }));
  const apply = (event: Event) => {
    event.preventDefault();
    const next: AuditQuery = {};
    for (const key of TEXT_FILTERS) if (form[key]?.trim()) next[key] = form[key].trim();
    if (form.direction === 'client' || form.direction === 'server') next.direction = form.direction;
    const since = toIso(form.since);
    const until = toIso(form.until);
    if (since) next.since = since;
    if (until) next.until = until;
    if (form.limit) next.limit = form.limit;
    setFilters(next);
  };
  return (
    <>
      <form class="card filters" onSubmit={apply} aria-label="Filters">
        {TEXT_FILTERS.map((key) => (
          <div class="field" key={key}>
            <label for={`audit-${key}`}>{key}</label>
            <input id={`audit-${key}`} type="text" value={form[key] ?? ''} onInput={set(key)} />
          </div>
        ))}
        <div class="field">
          <label for="audit-direction">direction</label>
          <select id="audit-direction" value={form.direction ?? ''} onChange={set('direction')}>
            <option value="">any</option>
            <option value="client">client (agents → boternity)</option>
            <option value="server">server (boternity → upstreams)</option>
          </select>
        </div>
        <div class="field">
          <label for="audit-since">since</label>
          <input id="audit-since" type="datetime-local" value={form.since ?? ''} onInput={set('since')} />
        </div>
        <div class="field">
          <label for="audit-until">until</label>
          <input id="audit-until" type="datetime-local" value={form.until ?? ''} onInput={set('until')} />
        </div>
        <div class="field">
          <label for="audit-limit">limit</label>
          <input id="audit-limit" type="number" min={1} max={1000} value={form.limit ?? ''} onInput={set('limit')} />
        </div>
        <div class="buttons">
          <button type="submit">Show</button>
          <button type="button" onClick={log.reload}>
            Refresh
          </button>
        </div>
      </form>
      <ErrorNote error={log.error} />
      <p class="summary" aria-live="polite">
        {log.loading ? 'Loading…' : `${count} ${count === 1 ? 'entry' : 'entries'}, newest first`}
      </p>
      <AuditTable entries={log.data?.entries ?? []} caption="Audit entries" />
    </>
  );
}
