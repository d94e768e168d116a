/**
 * One audit row in full (X7): every field of the API's entry, the hashes whole, the error
 * unabridged, with a copy of the entry as JSON.
 * @module
 */
import type { AuditEntry } from '../api-types.js';
import { CopyButton } from './copy-button.js';

/** How a field's value reads: null as "none", booleans as words, the rest as text. */
const shown = (value: unknown) => (value === null ? 'none' : typeof value === 'boolean' ? String(value) : value);

/** The fields of `entry`, named as the API names them; `tokenName` is the token `clientId` names, when known. */
export function AuditDetail({ entry, tokenName }: { entry: AuditEntry; tokenName?: string | undefined }) {
  const json = JSON.stringify(entry, null, 2);
  const id = `audit-json-${entry.id}`;
  return (
    <div class="audit-detail">
      <dl>
        {Object.entries(entry).map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>
              {key.endsWith('Hash') || key === 'id' || key === 'traceId' ? <code>{shown(value)}</code> : shown(value)}
              {key === 'timestamp' && ` (${new Date(entry.timestamp).toLocaleString()})`}
              {key === 'clientId' && tokenName && ` (token ${tokenName})`}
            </dd>
          </div>
        ))}
      </dl>
      <pre id={id} class="visually-hidden">
        {json}
      </pre>
      <CopyButton text={json} target={id} label="Copy as JSON" />
    </div>
  );
}
