/**
 * Hot reload (SPEC C2, C3): watch the config file, debounce bursts of writes, re-validate, and
 * report a new config only when it differs from the one in force. The directory is watched,
 * not the file: editors and atomic writes replace the file, which ends a watch on the file.
 * The service's own writes are already in force, so reading them back changes nothing; reads
 * run in the writer's queue, so a read never lands in the middle of an edit. A file that names
 * no servers at all cannot stop every running server (it is refused), and nothing that goes
 * wrong while reloading can end the process: it becomes an `onError`, the config in force stays.
 * Only a regular file is read (a FIFO put in its place would block the read, and so the queue,
 * forever), and a read that still takes longer than `readTimeoutMs` gives the queue back.
 * @module
 */
import { realpathSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors.js';
import type { PathIssue } from './config-issues.js';
import type { EditQueue } from './edit-queue.js';
import { loadConfigDetailed, readConfigText } from './load-config.js';
import { refuseReload } from './refuse-reload.js';
import type { AppConfig } from './schema.js';

/** Options of `watchConfig`; `initial` is the config already in use (what changes are compared to). */
export type WatchConfigOptions = {
  readonly debounceMs?: number;
  readonly initial?: AppConfig;
  /**
   * The text the config in force was read from: a file that no longer holds it when the
   * watch begins (saved while the service was starting) is read at once, not at its next change.
   */
  readonly readText?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The config in force, when more than this watcher changes it (the service's API edits): what a read is compared to. */
  readonly inForce?: () => AppConfig;
  /** The config writer's queue: each read runs there, between edits. */
  readonly queue?: EditQueue;
  /** A read not done by then is given up (an error; a late result is ignored), so edits are never held (default 10 s). */
  readonly readTimeoutMs?: number;
  /** A valid config that differs from the one in force. */
  onChange(config: AppConfig): void;
  /** The file is unreadable or invalid, or reloading it failed; the caller keeps its config in force. */
  onError(error: ConfigError): void;
  /** The file was re-read and is valid but means the config in force (e.g. only formatting changed). */
  onUnchanged?(): void;
  /** Warnings of a valid file that was applied (unknown keys kept). */
  onWarnings?(warnings: readonly PathIssue[]): void;
};

/** A running watch; `close()` stops it and no callback runs afterwards. */
export type ConfigWatcher = { close(): void };

/** Watch `file` for changes until `close()`. Without `initial` or `inForce`, the first valid read counts as a change. */
export function watchConfig(file: string, options: WatchConfigOptions): ConfigWatcher {
  const path = resolve(file);
  const name = basename(path);
  const debounceMs = options.debounceMs ?? 200;
  const readTimeoutMs = options.readTimeoutMs ?? 10_000;
  let lastGood: AppConfig | null = options.initial ?? null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let reading = false;
  let dirty = false;

  const check = async (givenUp: { value: boolean }) => {
    if (closed) return;
    const loaded = await loadConfigDetailed(path, options.env);
    if (closed || givenUp.value) return;
    const current = options.inForce?.() ?? lastGood;
    if (isDeepStrictEqual(loaded.config, current)) return options.onUnchanged?.();
    const refusal = refuseReload(loaded, current, path);
    if (refusal !== null) return options.onError(refusal);
    if (loaded.warnings.length > 0) options.onWarnings?.(loaded.warnings);
    options.onChange(loaded.config);
    lastGood = loaded.config;
  };

  /** Report `error` as this file's; a failure to report it cannot end the process either. */
  const fail = (error: unknown) => {
    if (closed) return;
    try {
      options.onError(asConfigError(error, path));
    } catch (reporting) {
      process.emitWarning(`config watcher: could not report an error of ${path}: ${String(reporting)}`);
    }
  };

  // One read at a time; changes seen during a read cause one more read afterwards.
  const reload = async () => {
    if (reading) {
      dirty = true;
      return;
    }
    reading = true;
    try {
      do {
        dirty = false;
        try {
          const bounded = () => withinDeadline(check, readTimeoutMs, path);
          await (options.queue ? options.queue.run(bounded) : bounded());
        } catch (error) {
          fail(error);
        }
      } while (dirty && !closed);
    } finally {
      reading = false;
    }
  };

  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), debounceMs);
  };

  const watcher = watch(dirname(path), (_event, changed) => {
    // Some platforms do not say which file changed: then it may have been ours.
    if (changed === null || changed === name) schedule();
  });
  // A symlinked config (a dotfiles repository): its target's saves are seen too.
  const target = realTarget(path);
  const targetWatcher =
    target && dirname(target) !== dirname(path)
      ? watch(dirname(target), (_event, changed) => {
          if (changed === null || changed === basename(target)) schedule();
        })
      : null;
  targetWatcher?.on('error', () => targetWatcher.close());
  if (options.readText !== undefined) {
    const readText = options.readText;
    void readConfigText(path).then(
      (text) => text !== readText && schedule(),
      () => schedule(),
    );
  }
  watcher.on('error', (error) => {
    const reason = `cannot watch ${dirname(path)}: ${error.message}`;
    fail(
      new ConfigError(`${path}: ${reason}`, path, [{ server: null, field: '', message: reason }], {
        cause: error,
        code: 'config_unreadable',
      }),
    );
  });

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
      targetWatcher?.close();
    },
  };
}

/** Run `check`; if it has not settled within `ms`, reject (so the queue moves on) and tell it its result no longer counts. */
async function withinDeadline(
  check: (givenUp: { value: boolean }) => Promise<void>,
  ms: number,
  path: string,
): Promise<void> {
  const givenUp = { value: false };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      givenUp.value = true;
      const reason = `reading it took longer than ${ms} ms; given up, the config in force stays`;
      reject(
        new ConfigError(`${path}: ${reason}`, path, [{ server: null, field: '', message: reason }], {
          code: 'config_unreadable',
        }),
      );
    }, ms);
  });
  try {
    await Promise.race([check(givenUp), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Any error of a reload as a `ConfigError` naming the file (a parser, the validator or the apply failing unexpectedly). */
function asConfigError(error: unknown, path: string): ConfigError {
  if (error instanceof ConfigError) return error;
  const why = error instanceof Error ? error.message : String(error);
  const reason = `could not be reloaded: ${why}`;
  return new ConfigError(`${path}: ${reason}`, path, [{ server: null, field: '', message: reason }], { cause: error });
}

/** Where a symlinked `path` leads; null when it is no link (or cannot be resolved now). */
function realTarget(path: string): string | null {
  try {
    const real = realpathSync(path);
    return real === path ? null : real;
  } catch {
    return null;
  }
}
