/**
 * The audit log (X7), newest first, filtered by drop-downs and kept in the URL
 * (`#/audit?server=fs&event=tool_call`), so a filtered view is a link. Past a page's limit,
 * "Older entries" follows the API's cursor (`before`, in the URL too). Hashes stand for
 * payloads, which are not stored; a row opens its full record.
 * @module
 */
import { useRef } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import { auditQueryOf } from '../audit-filters.js';
import { AuditFilters, type AuditOptions } from '../components/audit-filters.js';
import { AuditTable } from '../components/audit-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLoad } from '../use-load.js';
import { hrefOf, useRoute } from '../use-route.js';

const NO_OPTIONS: AuditOptions = { servers: [], bots: [], tokens: [] };

/** Go to the audit page with `query` in the URL. */
const go = (query: Record<string, string>) => {
  location.hash = hrefOf({ page: 'audit', query });
};

/** The page. */
export function AuditPage({ api }: { api: ApiClient }) {
  const route = useRoute();
  const url = (route.page === 'audit' && route.query) || {};
  const here = hrefOf({ page: 'audit', query: url });
  const log = useLoad(() => api.auditLog(auditQueryOf(url)), [here]);
  // The drop-downs' values; the page works without them (a value in the URL is kept).
  const options = useLoad(
    () =>
      Promise.all([api.servers(), api.bots(), api.tokens()]).then(
        ([s, b, t]): AuditOptions => ({
          servers: s.servers.map((server) => server.name).sort(),
          bots: b.bots.map((bot) => bot.slug).sort(),
          tokens: t.tokens.map(({ id, name }) => ({ id, name })),
        }),
      ),
    [],
  );
  const tokenNames = new Map(options.data?.tokens.map(({ id, name }) => [id, name]));
  // The page each older page was reached from, so "Newer entries" goes back to it.
  const newerOf = useRef(new Map<string, Record<string, string>>());
  const page = Math.max(Math.trunc(Number(url.page)) || 1, 1);
  const { before: _, page: __, ...filters } = url;
  const older = (cursor: string) => {
    const next = { ...filters, before: cursor, page: String(page + 1) };
    newerOf.current.set(hrefOf({ page: 'audit', query: next }), url);
    go(next);
  };
  const newer = () => go(newerOf.current.get(here) ?? filters);
  const count = log.data?.entries.length ?? 0;
  const nextCursor = log.data?.nextCursor ?? null;
  return (
    <>
      <AuditFilters url={url} options={options.data ?? NO_OPTIONS} onApply={go} onRefresh={log.reload} />
      <ErrorNote error={log.error} />
      <p class="summary" aria-live="polite">
        {log.loading
          ? 'Loading…'
          : `${count} ${count === 1 ? 'entry' : 'entries'}${page > 1 || nextCursor ? `, page ${page}` : ''}, newest first${nextCursor ? '; older ones on the next page' : ''}`}
      </p>
      <AuditTable entries={log.data?.entries ?? []} caption="Audit entries" tokenNames={tokenNames} />
      <nav class="audit-pages" aria-label="Audit pages">
        {url.before && (
          <button type="button" onClick={newer}>
            Newer entries
          </button>
        )}
        {nextCursor && (
          <button type="button" onClick={() => older(nextCursor)}>
            Older entries
          </button>
        )}
      </nav>
    </>
  );
}
