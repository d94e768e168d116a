/**
 * A tool's input schema as a table: each property (nested ones indented) with its type,
 * whether it is required, its default and its description; the raw JSON below, folded.
 * @module
 */
import { describeSchema } from '../describe-schema.js';

/** The table. */
export function SchemaTable({ schema, caption }: { schema: unknown; caption: string }) {
  const rows = describeSchema(schema);
  return (
    <div class="schema">
      {rows.length === 0 ? (
        <p class="note">{caption}: no parameters.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">parameter</th>
                <th scope="col">type</th>
                <th scope="col">required</th>
                <th scope="col">description</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      )}
      <details>
        <summary>JSON Schema</summary>
        <pre>{JSON.stringify(schema, null, 2)}</pre>
      </details>
    </div>
  );
}
