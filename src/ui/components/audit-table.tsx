/**
 * Audit rows (X7) as a table: when, which way, what, for whom, how long, how it ended, and
 * the first characters of the payloads' SHA-256 (payloads are not stored). A row opens its
 * full record below it: its time is a button (Enter or a click anywhere on the row). The
 * web UI's own test calls say so.
 * @module
 */
import { useState } from 'preact/hooks';
import type { AuditEntry } from '../api-types.js';
import { isUiTestCall } from '../audit-filters.js';
import { AuditDetail } from './audit-detail.js';
import { DataTable } from './data-table.js';

const COLUMNS = ['time', 'direction', 'event', 'server', 'tool', 'client / bot', 'ms', 'outcome', 'input / output'];

/** The table of `entries`; `tokenNames` names the tokens `clientId` holds, when known. */
export function AuditTable({
  entries,
  caption,
  tokenNames,
}: {
  entries: readonly AuditEntry[];
  caption: string;
  tokenNames?: ReadonlyMap<string, string>;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <DataTable name="audit" caption={caption} hideCaption columns={COLUMNS} classes={{ 6: 'num' }}>
      {entries.flatMap((entry) => {
        const expanded = open.has(entry.id);
        const token = entry.clientId ? tokenNames?.get(entry.clientId) : undefined;
        const row = (
          <tr
            key={entry.id}
            data-audit-id={entry.id}
            class={`audit-row${entry.success ? '' : ' failed'}`}
            onClick={(e) => {
              // The button toggles by itself; a click elsewhere in the row does it for the mouse.
              if (!(e.target as Element).closest('button')) toggle(entry.id);
            }}
          >
            <td>
              <button
                type="button"
                class="link"
                aria-expanded={expanded}
                aria-controls={expanded ? `audit-${entry.id}` : undefined}
                onClick={() => toggle(entry.id)}
              >
                {new Date(entry.timestamp).toLocaleString()}
              </button>
            </td>
            <td>{entry.direction}</td>
            <td>
              {entry.eventType}
              {entry.count > 1 && ` × ${entry.count}`}
            </td>
            <td>{entry.serverName}</td>
            <td>{entry.toolName}</td>
            <td>
              {isUiTestCall(entry) && <span class="badge ui-test">UI test</span>}
              {isUiTestCall(entry) && ' '}
              {[token ? `token ${token}` : entry.clientId, entry.clientName, entry.botId].filter(Boolean).join(' / ')}
            </td>
            <td class="num">{entry.durationMs ?? ''}</td>
            <td>
              {entry.success ? 'ok' : 'failed'}
              {entry.sanitized && ' · sanitized'}
              {entry.tokenUsage !== null && ` · ${entry.tokenUsage} tokens`}
              {entry.error && <div class="error-cell">{entry.error}</div>}
            </td>
            <td>
              <code title={entry.inputHash ?? undefined}>{entry.inputHash?.slice(0, 8) ?? '–'}</code> /{' '}
              <code title={entry.outputHash ?? undefined}>{entry.outputHash?.slice(0, 8) ?? '–'}</code>
            </td>
          </tr>
        );
        if (!expanded) return [row];
        return [
          row,
          <tr key={`${entry.id}-detail`} id={`audit-${entry.id}`} class="audit-detail-row">
            <td colSpan={COLUMNS.length}>
              <AuditDetail entry={entry} tokenName={token} />
            </td>
          </tr>,
        ];
      })}
    </DataTable>
  );
}
