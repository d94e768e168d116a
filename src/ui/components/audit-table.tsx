/**
 * Audit rows (X7) as a table: when, which way, what, for whom, how long, how it ended, and
 * the first characters of the payloads' SHA-256 (payloads are not stored).
 * @module
 */
import type { AuditEntry } from '../api-types.js';
import { DataTable } from './data-table.js';

/** The table of `entries`. */
export function AuditTable({ entries, caption }: { entries: readonly AuditEntry[]; caption: string }) {
  return (
    <DataTable
      name="audit"
      caption={caption}
      hideCaption
      columns={['time', 'direction', 'event', 'server', 'tool', 'client / bot', 'ms', 'outcome', 'input / output']}
      classes={{ 6: 'num' }}
    >
      {entries.map((entry) => (
        <tr key={entry.id} class={entry.success ? undefined : 'failed'}>
          <td>{new Date(entry.timestamp).toLocaleString()}</td>
          <td>{entry.direction}</td>
          <td>
            {entry.eventType}
            {entry.count > 1 && ` × ${entry.count}`}
          </td>
          <td>{entry.serverName}</td>
          <td>{entry.toolName}</td>
          <td>{[entry.clientId, entry.clientName, entry.botId].filter(Boolean).join(' / ')}</td>
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
      ))}
    </DataTable>
  );
}
