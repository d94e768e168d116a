/**
 * The tool inventory's filter box (issue 19): a labelled search field and how many tools it
 * lets through ("12 of 300 tools"), said politely to screen readers as it changes; when no
 * tool held every word and the search ranked some instead (issue 24), it says so.
 * @module
 */

/** The box; `onQuery` gets each keystroke's text. */
export function ToolFilterBox({
  id,
  query,
  onQuery,
  shown,
  total,
  ranked = false,
}: {
  id: string;
  query: string;
  onQuery: (query: string) => void;
  shown: number;
  total: number;
  /** The tools shown are the search's best matches, not rows holding every word. */
  ranked?: boolean;
}) {
  return (
    <p class="tool-filter">
      <label for={id}>Filter tools</label>{' '}
      <input
        id={id}
        type="search"
        value={query}
        autocomplete="off"
        spellcheck={false}
        placeholder="name or description"
        aria-describedby={`${id}-count`}
        onInput={(e) => onQuery(e.currentTarget.value)}
      />{' '}
      <span id={`${id}-count`} class="note" role="status">
        {shown === total
          ? `${total} tools`
          : ranked
            ? `no tool holds every word: the ${shown} best matches of ${total} tools`
            : `${shown} of ${total} tools`}
      </span>
    </p>
  );
}
