/**
 * The servers of another client's config file, pasted or chosen in the import panel, as
 * `POST /api/servers/import` takes them (`servers`): Claude Desktop's and Cursor's
 * `"mcpServers"`, VS Code's `"servers"` (its files are JSONC: comments and trailing commas
 * are allowed here too), as `bnity mcp import` reads a file. Every failure is one line.
 * Pure, so it is tested without a browser.
 * @module
 */

/** Entries by name, as the route takes them. */
export type ClientServers = Record<string, Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `text` with what `drop` removes outside strings: `drop(rest)` gives how many characters of
 * `rest` to drop (0: keep the next one), and what to put in their place.
 */
function outsideStrings(text: string, drop: (rest: string) => [number, string]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      // A whole string, escapes included.
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    // Only a `/` or a `,` can start what is dropped: the rest of the text is looked at for those alone.
    const [count, instead] = text[i] === '/' || text[i] === ',' ? drop(text.slice(i)) : [0, ''];
    if (count > 0) {
      out += instead;
      i += count;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return out;
}

/** `text` without its comments, then without its trailing commas (strings left as they are). */
export function stripJsonc(text: string): string {
  const uncommented = outsideStrings(text, (rest) => {
    if (rest.startsWith('//')) {
      const end = rest.indexOf('\n');
      return [end === -1 ? rest.length : end, ''];
    }
    if (rest.startsWith('/*')) {
      const end = rest.indexOf('*/', 2);
      return [end === -1 ? rest.length : end + 2, ' '];
    }
    return [0, ''];
  });
  return outsideStrings(uncommented, (rest) => (/^,\s*[}\]]/.test(rest) ? [1, ' '] : [0, '']));
}

/** The servers `text` declares; throws an Error whose message is the one line to show. */
export function clientConfigServers(text: string): ClientServers {
  if (!text.trim()) throw new Error('paste a config file or choose one first');
  let raw: unknown;
  try {
    raw = JSON.parse(stripJsonc(text.replace(/^\uFEFF/, '')));
  } catch (error) {
    throw new Error(`not JSON: ${(error as Error).message}`);
  }
  if (!isObject(raw)) throw new Error('expected a JSON object, as a client config file is');
  const key = !Object.hasOwn(raw, 'mcpServers') && Object.hasOwn(raw, 'servers') ? 'servers' : 'mcpServers';
  const servers = raw[key];
  if (servers === undefined) throw new Error('no "mcpServers" (or VS Code "servers") in this JSON');
  if (!isObject(servers)) throw new Error(`"${key}" is not an object of servers by name`);
  const names = Object.keys(servers);
  if (names.length === 0) throw new Error(`"${key}" names no server`);
  for (const name of names)
    if (!isObject(servers[name])) throw new Error(`${key}.${name}: expected an object (a server's entry)`);
  return servers as ClientServers;
}
