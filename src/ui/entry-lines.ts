/**
 * A server entry's lists and maps as the forms edit them, one per line: arguments one a
 * line, `NAME=value` environment variables and `Name: value` headers. Used by the add form
 * and the settings form alike.
 * @module
 */

/** The non-empty lines of `text`, trimmed. */
export const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `KEY=VALUE` (or `Key: Value`) lines as a map; a line without the separator is an error. */
export function pairs(text: string, separator: '=' | ':', what: string): Record<string, string> | undefined {
  const entries = lines(text).map((line) => {
    const at = line.indexOf(separator);
    if (at <= 0) throw new Error(`${what}: "${line}" is not ${separator === '=' ? 'NAME=value' : 'Name: value'}`);
    return [line.slice(0, at).trim(), line.slice(at + 1).trim()] as const;
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A map as the lines {@link pairs} reads back (`=` gives `NAME=value`, `:` gives `Name: value`). */
export const pairLines = (map: Record<string, string> | undefined, separator: '=' | ':'): string =>
  Object.entries(map ?? {})
    .map(([name, value]) => `${name}${separator === '=' ? '=' : ': '}${value}`)
    .join('\n');
