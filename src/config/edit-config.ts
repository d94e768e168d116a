/**
 * Config writes (SPEC C4): every edit is a read-modify-write of the config file's text (see
 * `open-config-document.ts`), under an in-process queue (optional) and a cross-process file
 * lock. It starts only from a file the service would accept (`check-edit-base.ts`); the whole
 * result is validated by the loader's own parser before anything is written (refused with the
 * field named, the file untouched), then written atomically.
 *
 * The lock only holds back writers that take it; an editor saving with an atomic rename (vim,
 * VS Code) does not. So the file is read again right before the rename: if it is no longer
 * the text the edit was made on, nothing is written and the edit is made again on the new
 * text (a few times, then refused). What remains is the time between that last read and the
 * rename, made back to back with nothing else run between them: a save landing exactly there
 * is overwritten.
 * @module
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HubError } from '../errors.js';
import { checkEditBase } from './check-edit-base.js';
import type { EditQueue } from './edit-queue.js';
import { parseConfigTextDetailed, unreadableConfigError } from './load-config.js';
import { type ConfigDocument, openConfigDocument } from './open-config-document.js';
import type { ParsedConfig } from './parse-config.js';
import { readRegularFile, readRegularFileSync } from './read-regular-file.js';
import type { AppConfig } from './schema.js';
import { withFileLock } from './with-file-lock.js';
import { writeFileAtomic } from './write-file-atomic.js';

export type { ConfigDocument } from './open-config-document.js';

/** An edited, validated config and the text that holds it. */
export type ConfigEdit = ParsedConfig & { readonly text: string };

/** Options of {@link editConfigFile}; the service passes its queue, config in force and hook, the CLI nothing. */
export type EditConfigOptions = {
  /** For `${env:VAR}` while validating (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Serializes this process's writers before they reach the file lock. */
  queue?: EditQueue;
  /** How long to wait for another process's lock (default 15 s). */
  lockWaitMs?: number;
  /** How many times an edit is made again when the file changed under it (default 5). */
  attempts?: number;
  /** The service's config in force: a file that would stop all of it is not built on. */
  inForce?: () => AppConfig;
  /** Runs with the lock held, once the text is written (e.g. to apply it). */
  afterWrite?(edit: ConfigEdit): void;
  /** Runs once the edit is made, before it is written (again if it is made again): a test seam where another writer races. */
  beforeWrite?(): Promise<void> | void;
};

/** Owner read and write only: the mode every config write leaves (or a stricter one kept). */
export const CONFIG_FILE_MODE = 0o600;

/** The text a missing config file is edited from. */
const EMPTY_FILE = '{}\n';
const DEFAULT_ATTEMPTS = 5;

/** Lock, read, run `edit`, validate the whole file, write atomically; resolves with the new validated config. Throws ConfigError (field named; file untouched) or HubError. */
export async function editConfigFile(
  path: string,
  edit: (doc: ConfigDocument) => void,
  options: EditConfigOptions = {},
): Promise<AppConfig> {
  return (await editConfig(path, edit, options)).config;
}

/**
 * Like {@link editConfigFile}, resolving with the text written, warnings and all. `edit` may
 * run more than once (on the newer text when the file changed meanwhile): it must start over.
 */
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
  const env = options.env ?? process.env;
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const before = await readOrNull(path);
    checkEditBase(before, path, { env, inForce: options.inForce?.() });
    const base = before ?? EMPTY_FILE;
    const document = openConfigDocument(base);
    edit(document);
    const text = document.text();
    const result: ConfigEdit = { ...parseConfigTextDetailed(text, path, env), text };
    if (text === base) return result;
    await options.beforeWrite?.();
    let written: boolean;
    try {
      written = await writeFileAtomic(path, text, {
        mode: await configFileMode(path),
        commitIf: () => readNowOrNull(path) === before,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new HubError('internal', `cannot write ${path}: ${code ?? (error as Error).message}; nothing was changed`, {
        cause: error,
      });
    }
    if (written) {
      options.afterWrite?.(result);
      return result;
    }
    if (attempt >= attempts) {
      throw new HubError(
        'conflict',
        `${path} kept changing while it was being edited (${attempts} tries): nothing was written; try again`,
      );
    }
  }
}

/**
 * The config may hold secrets (an imported server's env): it is written 0600, or stricter
 * when the file already is (0400 stays 0400); a looser existing mode (0644) is tightened.
 */
async function configFileMode(path: string): Promise<number> {
  try {
    return (await stat(path)).mode & CONFIG_FILE_MODE;
  } catch {
    return CONFIG_FILE_MODE;
  }
}

/** The file's text, or null when there is none; a file that cannot be read is a `config_unreadable` error. */
async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readRegularFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw unreadableConfigError(path, error);
  }
}

function readNowOrNull(path: string): string | null {
  try {
    return readRegularFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
