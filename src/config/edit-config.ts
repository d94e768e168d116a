/**
 * Config writes (SPEC C4): every edit is a read-modify-write of the config file's text with
 * `jsonc-parser`'s `modify`, so comments, unknown keys and the order and formatting of
 * untouched entries stay as they were. The whole result is validated by the loader's own
 * parser before anything is written (refused with the field named, the file untouched), then
 * written atomically, under an in-process queue (optional) and a cross-process file lock.
 * @module
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
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
import type { EditQueue } from './edit-queue.js';
import { isJsonObject } from './json-object.js';
import { parseConfigTextDetailed } from './load-config.js';
import type { ParsedConfig } from './parse-config.js';
import { JSONC_OPTIONS, parseConfigJson } from './parse-config-json.js';
import type { AppConfig } from './schema.js';
import { withFileLock } from './with-file-lock.js';
import { writeFileAtomic } from './write-file-atomic.js';

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
};

/** An edited, validated config and the text that holds it. */
export type ConfigEdit = ParsedConfig & { readonly text: string };

/** Options of {@link editConfigFile}; the service passes its queue and hooks, the CLI nothing. */
export type EditConfigOptions = {
  /** For `${env:VAR}` while validating (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Serializes this process's writers before they reach the file lock. */
  queue?: EditQueue;
  /** How long to wait for another process's lock (default 15 s). */
  lockWaitMs?: number;
  /** Runs with the lock held, just before the text is written (e.g. to tell the watcher to expect it). */
  beforeWrite?(edit: ConfigEdit): void;
  /** Runs with the lock held, once the text is written (e.g. to apply it). */
  afterWrite?(edit: ConfigEdit): void;
  /** Runs when the write failed after `beforeWrite`. */
  writeFailed?(edit: ConfigEdit): void;
};

/** The text a missing config file is edited from. */
const EMPTY_FILE = '{}\n';

/** Lock, read, run `edit`, validate the whole file, write atomically; resolves with the new validated config. Throws ConfigError (field named; file untouched) or HubError. */
export async function editConfigFile(
  path: string,
  edit: (doc: ConfigDocument) => void,
  options: EditConfigOptions = {},
): Promise<AppConfig> {
  return (await editConfig(path, edit, options)).config;
}

/** Like {@link editConfigFile}, resolving with the text written, warnings and all. */
export function editConfig(
  path: string,
  edit: (doc: ConfigDocument) => void,
  options: EditConfigOptions = {},
): Promise<ConfigEdit> {
  const wait = options.lockWaitMs === undefined ? {} : { waitMs: options.lockWaitMs };
  const locked = async () => {
    await mkdir(dirname(path), { recursive: true });
    return withFileLock(path, () => editLocked(path, edit, options), wait);
  };
  return options.queue ? options.queue.run(locked) : locked();
}

async function editLocked(
  path: string,
  edit: (doc: ConfigDocument) => void,
  options: EditConfigOptions,
): Promise<ConfigEdit> {
  const before = await readOrEmpty(path);
  // A file that is not even JSON is not edited: the loader's error names line and column.
  parseConfigJson(before, path);
  const document = openConfigDocument(before);
  edit(document);
  const text = document.text();
  const parsed = parseConfigTextDetailed(text, path, options.env ?? process.env);
  const result: ConfigEdit = { ...parsed, text };
  if (text === before) return result;
  options.beforeWrite?.(result);
  try {
    await writeFileAtomic(path, text);
  } catch (error) {
    options.writeFailed?.(result);
    const code = (error as NodeJS.ErrnoException).code;
    throw new HubError('internal', `cannot write ${path}: ${code ?? (error as Error).message}; nothing was changed`, {
      cause: error,
    });
  }
  options.afterWrite?.(result);
  return result;
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_FILE;
    throw error;
  }
}

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
    text = applyEdits(text, modify(text, path, value, { formattingOptions: formatting }));
  };
  const requireServer = (name: string) => {
    if (!Object.hasOwn(servers(), name)) throw new UnknownServerError(name);
  };

  return {
    text: () => text,
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
