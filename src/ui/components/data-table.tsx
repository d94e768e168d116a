/**
 * A table with a caption and column headings, scrolling sideways in its own box when a
 * window is too narrow for it (the page itself never does).
 * @module
 */
import type { ComponentChildren } from 'preact';

/** The table; `children` are its body's rows. A column heading may be a node (or hidden text). */
export function DataTable({
  name,
  caption,
  hideCaption = false,
  columns,
  children,
}: {
  name: string;
  caption: string;
  hideCaption?: boolean;
  columns: readonly ComponentChildren[];
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={name}>
        <caption class={hideCaption ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
