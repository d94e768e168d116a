/**
 * A titled list of named things: each a name (in code type, or a tag) and what it is. While
 * the list loads its count is `…`; an empty one says so.
 * @module
 */
import { ErrorNote } from './error-note.js';

/** One item: `label` in code type (or as a tag), then `detail`. */
export type ListingItem = { key: string; label: string; tag?: boolean; detail?: string | undefined };

/** The list; `items` is null while it loads. */
export function Listing({
  title,
  items,
  error = null,
}: {
  title: string;
  items: readonly ListingItem[] | null;
  error?: string | null;
}) {
  return (
    <section aria-label={title}>
      <h2>
        {title} ({items?.length ?? '…'})
      </h2>
      <ErrorNote error={error} />
      {items?.length === 0 ? (
        <p class="note">None.</p>
      ) : (
        <ul class="listing">
          {items?.map((item) => (
            <li key={item.key}>
              {item.tag ? <span class="badge">{item.label}</span> : <code>{item.label}</code>}
              {item.detail && <span class="prose"> — {item.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
