/**
 * JSON shown highlighted (seed 003, "syntax highlighting for JSON input/output"): the text
 * `JSON.stringify(value, null, 2)` makes, its keys, strings, numbers and literals each in a
 * span of class `j-key`, `j-str`, `j-num`, `j-lit` (app.css colours them). Text that is not
 * JSON is shown as it is. Small on purpose: no dependency, one pass of one expression.
 * @module
 */
import type { ComponentChildren } from 'preact';

// A string and the colon that makes it a key, a number, or a literal (same as the CLI's).
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** `text`, a tool's answer: the JSON value it holds when it is an object or array, else undefined. */
export function parseJsonText(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `value` as JSON text, as {@link JsonView} shows it (and a Copy button copies it). */
export const jsonText = (value: unknown) => JSON.stringify(value, null, 2) ?? String(value);

/**
 * `value` as highlighted JSON; a string that `raw` marks as not JSON is shown as it is. `id`
 * names the block (for a Copy button to select when the clipboard is refused).
 */
export function JsonView({ value, raw = false, id }: { value: unknown; raw?: boolean; id?: string }) {
  const text = raw ? String(value) : jsonText(value);
  if (raw)
    return (
      <pre class="json" id={id}>
        {text}
      </pre>
    );
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [all, string, colon, number] = match;
    parts.push(text.slice(last, match.index));
    const kind = string === undefined ? (number === undefined ? 'j-lit' : 'j-num') : colon ? 'j-key' : 'j-str';
    parts.push(<span class={kind}>{string ?? all}</span>);
    if (colon) parts.push(colon);
    last = match.index + all.length;
  }
  parts.push(text.slice(last));
  return (
    <pre class="json" id={id}>
      {parts}
    </pre>
  );
}
