/**
 * A tool's input schema as a table: each property (nested ones indented) with its type,
 * whether it is required, its default and its description; the raw JSON below, folded.
 * @module
 */
import { describeSchema } from '../describe-schema.js';
import { DataTable } from './data-table.js';

/** The table. */
export function SchemaTable({ schema, caption }: { schema: unknown; caption: string }) {
  const rows = describeSchema(schema);
  return (
    <div class="schema">
      {rows.length === 0 ? (
        <p class="note">{caption}: no parameters.</p>
      ) : (
        <DataTable name="schema-rows" caption={caption} columns={['parameter', 'type', 'required', 'description']}>
          {rows.map((row) => (
            <tr key={row.path}>
              <th scope="row" class={`depth-${Math.min(row.depth, 4)}`}>
                <code>{row.path}</code>
              </th>
              <td>
                {row.type}
                {row.defaultValue !== null && <span class="note"> (default {row.defaultValue})</span>}
              </td>
              <td>{row.required ? 'yes' : 'no'}</td>
              <td class="prose">{row.description}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <details>
        <summary>JSON Schema</summary>
        <pre>{JSON.stringify(schema, null, 2)}</pre>
      </details>
    </div>
  );
}
