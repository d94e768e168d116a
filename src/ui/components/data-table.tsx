/**
 * A table with a caption and column headings, scrolling sideways in its own box when a
 * window is too narrow for it (the page itself never does), a Tab stop while it scrolls. A heading's class reaches its
 * column's cells through the style sheet: `num` right-aligns a heading over right-aligned
 * numbers, and a table with fixed widths sizes its columns from its headings.
 * @module
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useKeyboardScroll } from '../use-keyboard-scroll.js';

/**
 * The table; `children` are its body's rows. A column heading may be a node (or hidden text);
 * `classes` are headings' classes, by column index.
 */
export function DataTable({
  name,
  caption,
  hideCaption = false,
  columns,
  classes = {},
  children,
}: {
  name: string;
  caption: string;
  hideCaption?: boolean;
  columns: readonly ComponentChildren[];
  classes?: Readonly<Record<number, string>>;
  children: ComponentChildren;
}) {
  const wrap = useRef<HTMLDivElement>(null);
  useKeyboardScroll(wrap, caption);
  return (
    <div class="table-wrap" ref={wrap}>
      <table class={name}>
        <caption class={hideCaption ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" class={classes[index]}>
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
