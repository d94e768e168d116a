/**
 * A config file's text as a document of server entries and bot views (SPEC C4): each change
 * is a `jsonc-parser` `modify` of the text, so comments, unknown keys and the order and
 * formatting of untouched entries stay as they were.
 * @module
 */
import {
  applyEdits,
  type FormattingOptions,
  findNodeAtLocation,
  getNodeValue,
  modify,
  type Node,
  parseTree,
} from 'jsonc-parser';
import { HubError, UnknownServerError } from '../errors.js';
import { isJsonObject } from './json-object.js';
import { JSONC_OPTIONS, MAX_CONFIG_DEPTH } from './parse-config-json.js';

/** A raw config document being edited (JSON/JSONC text underneath; unknown keys, comments and order kept). */
export type ConfigDocument = {
  serverNames(): string[];
  /** The raw entry as written. */
  getServer(name: string): Record<string, unknown> | undefined;
  /** HubError code 'conflict' if the name exists. */
  addServer(name: string, entry: Record<string, unknown>): void;
  /** Replace or create. */
  setServer(name: string, entry: Record<string, unknown>): void;
  /** Shallow merge; a key set to null is removed; UnknownServerError if absent. */
  patchServer(name: string, patch: Record<string, unknown>): void;
  /** UnknownServerError if absent. */
  removeServer(name: string): void;
  /** The raw `bots.{slug}` entry (a bot's view) as written. */
  getBot(slug: string): Record<string, unknown> | undefined;
  /** Replace `bots.{slug}`; undefined removes it. */
  setBot(slug: string, entry: Record<string, unknown> | undefined): void;
  /** Replace the whole document with `text` (`bnity config import`); it is validated whole, as every edit is. */
  replaceAll(text: string): void;
};

/** A document over `text`; `text()` is the edited text. Server entries live under `mcpServers` (or VS Code's `servers`). */
export function openConfigDocument(initial: string): ConfigDocument & { text(): string } {
  let text = initial;
  const formatting = formattingOf(initial);
  const tree = (): Node | undefined => parseTree(text, [], JSONC_OPTIONS);
  const serversKey = (): string => {
    const root = tree();
    const has = (key: string) => root !== undefined && findNodeAtLocation(root, [key]) !== undefined;
    return !has('mcpServers') && has('servers') ? 'servers' : 'mcpServers';
  };
  const servers = (): Record<string, unknown> => {
    const root = tree();
    const node = root === undefined ? undefined : findNodeAtLocation(root, [serversKey()]);
    const value = node === undefined ? undefined : plain(getNodeValue(node));
    return isJsonObject(value) ? value : {};
  };
  const set = (path: (string | number)[], value: unknown) => {
    // The text must stay readable by the (recursive) parser, and `modify` serializes recursively.
    if (nestedDeeperThan(value, MAX_CONFIG_DEPTH - path.length)) {
      throw new HubError('bad_request', `${path.join('.')}: nested deeper than ${MAX_CONFIG_DEPTH} levels`);
    }
    text = applyEdits(text, modify(text, path, value, { formattingOptions: formatting }));
  };
  const requireServer = (name: string) => {
    if (!Object.hasOwn(servers(), name)) throw new UnknownServerError(name);
  };

  return {
    text: () => text,
    replaceAll(next) {
      text = next;
    },
    serverNames: () => Object.keys(servers()),
    getServer(name) {
      const all = servers();
      const entry = Object.hasOwn(all, name) ? all[name] : undefined;
      return isJsonObject(entry) ? entry : undefined;
    },
    addServer(name, entry) {
      if (Object.hasOwn(servers(), name)) throw new HubError('conflict', `server "${name}" already exists`);
      set([serversKey(), name], entry);
    },
    setServer(name, entry) {
      set([serversKey(), name], entry);
    },
    patchServer(name, patch) {
      requireServer(name);
      const key = serversKey();
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        set([key, name, field], value === null ? undefined : value);
      }
    },
    removeServer(name) {
      requireServer(name);
      set([serversKey(), name], undefined);
    },
    getBot(slug) {
      const root = tree();
      const node = root === undefined ? undefined : findNodeAtLocation(root, ['bots', slug]);
      const value = node === undefined ? undefined : plain(getNodeValue(node));
      return isJsonObject(value) ? value : undefined;
    },
    setBot(slug, entry) {
      set(['bots', slug], entry);
    },
  };
}

/** Whether arrays and objects in `value` nest deeper than `max` (a walk with its own stack: no recursion). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** jsonc-parser's values have null prototypes: make them plain JSON again. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Indentation and line ends as the file has them (two spaces for a new file). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)["/]/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}
