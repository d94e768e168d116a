/**
 * A search index over one view's tools (issue 24): field-weighted BM25+ (`bm25-index.ts`) over
 * the words of the tool's own name, its title, description, parameter names and
 * descriptions, and its server's name. It follows the listing: {@link ToolIndex.sync} with
 * a new listing (the view cache makes one only when the view changed, list_changed
 * included) re-indexes the tools that changed, added or left, not the rest; queries never
 * rebuild it.
 *
 * Queries: `select:a,b` picks tools by exact name, in the order given; `regex:<pattern>`
 * matches names and titles (case-insensitive) with the index's `regex` (the service gives
 * `linear-regex.ts`: an agent's pattern in RE2's syntax and linear time, for V8's engine
 * backtracks — `(\w+)*!` over a 30-character name held the loop for seconds, every
 * client's with it, X8; the web UI's own filter keeps the browser's); anything else is
 * ranked, best first.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  addDocument,
  type Bm25Index,
  type Bm25Options,
  createBm25Index,
  type FieldText,
  removeDocument,
} from './bm25-index.js';
import { nameWords } from './name-words.js';
import { searchDocuments } from './search-documents.js';
import { toTerm } from './search-terms.js';

/** One tool as the view lists it, with the server it comes from and its upstream name (null for a bot tool). */
export type IndexedTool = { readonly tool: Tool; readonly server: string | null; readonly ownName: string };

/** A found tool: its public name, a one-line description, its server. */
export type ToolHit = {
  readonly name: string;
  readonly title?: string;
  readonly summary: string;
  readonly score: number;
};

/** The index of a listing. */
export type ToolIndex = {
  /** Make the index that of `tools`: only what changed since the last listing is indexed again. */
  sync(tools: readonly IndexedTool[]): void;
  /** Up to `limit` tools for `query`, best first; a `regex:` that does not compile is an Error with one line. */
  search(query: string, limit: number): ToolHit[] | Error;
  /** The listed tool called `name`. */
  tool(name: string): Tool | undefined;
  readonly size: number;
};

/** The longest query taken: longer is cut, not refused (a task pasted in whole still finds something). */
export const MAX_QUERY = 500;
const MAX_SUMMARY = 160;

type Field = 'name' | 'title' | 'server' | 'description' | 'params';

/**
 * The fields, in the order {@link docOf} gives their texts; weights measured on the query set
 * of test/gateway/search/ (docs/gateway.md). One object for every index, so that every index's
 * state points to the same one (ADR 038, "Revised a fourth time").
 */
const OPTIONS: Bm25Options<Field> = {
  fields: ['name', 'title', 'server', 'description', 'params'],
  boost: { name: 4, title: 2, server: 2, description: 1.5, params: 0.3 },
  processTerm: toTerm,
  prefix: (term) => term.length >= 4,
};

/** The first sentence or line of `text`, at most {@link MAX_SUMMARY} characters. */
export function summaryOf(text: string | undefined): string {
  const line = (text ?? '').trim().split(/\n|(?<=\.)\s/u)[0] ?? '';
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}

const titleOf = (tool: Tool): string => tool.title ?? tool.annotations?.title ?? '';

/** Parameter names (as words) and descriptions of the tool's top-level arguments, as pieces of one field. */
function paramsOf(tool: Tool): string[] {
  const props = tool.inputSchema.properties ?? {};
  const pieces: string[] = [];
  for (const key in props) {
    if (!Object.hasOwn(props, key)) continue;
    const description = (props[key] as { description?: unknown } | null)?.description;
    pieces.push(nameWords(key));
    if (typeof description === 'string') pieces.push(description);
  }
  return pieces;
}

/** What a tool's entry in the index depends on: a change re-indexes it. */
const signatureOf = ({ tool, server, ownName }: IndexedTool): string =>
  JSON.stringify([server, ownName, titleOf(tool), tool.description ?? '', tool.inputSchema.properties ?? {}]);

/** The texts of a tool's fields, in the order of {@link OPTIONS}. */
const docOf = ({ tool, server, ownName }: IndexedTool): FieldText[] => [
  nameWords(ownName),
  titleOf(tool),
  server ? nameWords(server) : '',
  tool.description ?? '',
  paramsOf(tool),
];

/**
 * An index's state, read and written by the module functions below: the sync is one function
 * for every index, so V8 compiles it once, not once more for each index's closure (ADR 038).
 */
type Listing = {
  readonly byName: Map<string, Tool>;
  /** What each listed tool was indexed from, and (made only once a listing brought other objects) its signature. */
  readonly indexed: Map<string, IndexedTool>;
  readonly signatures: Map<string, string>;
  readonly search: Bm25Index<Field>;
};

const createListing = (): Listing => ({
  byName: new Map(),
  indexed: new Map(),
  signatures: new Map(),
  search: createBm25Index(OPTIONS),
});

/** Kept while the module is loaded, never written: its hidden class is then every listing's (see `SHAPES`, bm25-index.ts). */
export const LISTING_SHAPE: Listing = createListing();

/** Make `listing` that of `tools`: what changed, added or left is indexed again or forgotten. */
function syncListing(listing: Listing, tools: readonly IndexedTool[]): void {
  const { byName, indexed, signatures, search } = listing;
  const listed = new Set<string>();
  for (const entry of tools) {
    const name = entry.tool.name;
    listed.add(name);
    byName.set(name, entry.tool);
    if (indexed.has(name) && unchanged(listing, name, entry)) continue;
    indexed.set(name, entry);
    signatures.delete(name);
    addDocument(search, name, docOf(entry));
  }
  for (const name of indexed.keys()) {
    if (listed.has(name)) continue;
    indexed.delete(name);
    signatures.delete(name);
    byName.delete(name);
    removeDocument(search, name);
  }
}

/**
 * Whether `entry` indexes as the tool indexed under its name did: the same objects (a listing
 * rebuilt from the view's cache), or else the same text; signatures are made only when the
 * objects differ, so a first listing is indexed without them.
 */
function unchanged({ indexed, signatures }: Listing, name: string, entry: IndexedTool): boolean {
  const was = indexed.get(name) as IndexedTool;
  if (was.tool === entry.tool && was.server === entry.server && was.ownName === entry.ownName) return true;
  const signature = signatures.get(name) ?? signatureOf(was);
  if (signature !== signatureOf(entry)) return false;
  signatures.set(name, signature);
  indexed.set(name, entry);
  return true;
}

/** An index, empty until its first {@link ToolIndex.sync}. */
/** A `regex:` query's matcher of `source`, case-insensitive; throws (one line first) on a bad pattern. */
export type RegexMatcher = (source: string) => (text: string) => boolean;

/** The browser's engine: for the web UI, whose filter runs the operator's own pattern in their own tab. */
const backtrackingRegex: RegexMatcher = (source) => {
  const pattern = new RegExp(source, 'iu');
  return (text) => pattern.test(text);
};

export function createToolIndex({ regex = backtrackingRegex }: { regex?: RegexMatcher } = {}): ToolIndex {
  const listing = createListing();
  const { byName, search } = listing;
  const hit = (name: string, score: number): ToolHit => {
    const tool = byName.get(name) as Tool;
    const title = titleOf(tool);
    return { name, ...(title ? { title } : {}), summary: summaryOf(tool.description), score };
  };
  return {
    sync: (tools) => syncListing(listing, tools),
    get size() {
      return byName.size;
    },
    tool: (name) => byName.get(name),
    search(query, limit) {
      const asked = query.slice(0, MAX_QUERY).trim();
      if (asked.startsWith('select:')) {
        const names = asked
          .slice('select:'.length)
          .split(',')
          .map((n) => n.trim());
        return [...new Set(names)]
          .filter((n) => byName.has(n))
          .slice(0, limit)
          .map((n) => hit(n, 1));
      }
      if (asked.startsWith('regex:')) {
        let matches: (text: string) => boolean;
        try {
          matches = regex(asked.slice('regex:'.length));
        } catch (error) {
          return new Error(`not a regular expression: ${(error as Error).message.split('\n')[0]}`);
        }
        return [...byName.values()]
          .filter((tool) => matches(tool.name) || matches(titleOf(tool)))
          .slice(0, limit)
          .map((tool) => hit(tool.name, 1));
      }
      return searchDocuments(search, asked)
        .slice(0, limit)
        .map((r) => hit(String(r.id), Math.round(r.score * 1000) / 1000));
    },
  };
}
