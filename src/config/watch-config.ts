/**
 * Hot reload (SPEC C2, C3): watch the config file, debounce bursts of writes, re-validate, and
 * report a new config only when it differs from the last good one. The directory is watched,
 * not the file: editors and atomic writes replace the file, which ends a watch on the file.
 * The service's own writes are recognised through `claim` and not applied twice;
 * a file that names no servers at all cannot stop every running server (it is refused).
 * @module
 */
import { watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors.js';
import type { PathIssue } from './config-issues.js';
import { loadConfigDetailed } from './load-config.js';
import type { AppConfig } from './schema.js';

/** Options of `watchConfig`; `initial` is the config already in use (what changes are compared to). */
export type WatchConfigOptions = {
  readonly debounceMs?: number;
  readonly initial?: AppConfig;
  readonly env?: NodeJS.ProcessEnv;
  /** A valid config that differs from the last good one. */
  onChange(config: AppConfig): void;
  /** The file is unreadable or invalid; the caller keeps its last good config. */
  onError(error: ConfigError): void;
  /** The file was re-read and is valid but means the same config (e.g. only formatting changed). */
  onUnchanged?(): void;
  /** Warnings of a valid file that was applied (unknown keys kept). */
  onWarnings?(warnings: readonly PathIssue[]): void;
  /** The config a text means when the service wrote it itself (and applied it already). */
  claim?(text: string): AppConfig | undefined;
};

/** A running watch; `close()` stops it and no callback runs afterwards. */
export type ConfigWatcher = { close(): void };

/** Watch `file` for changes until `close()`. Without `initial`, the first valid read counts as a change. */
export function watchConfig(file: string, options: WatchConfigOptions): ConfigWatcher {
  const path = resolve(file);
  const name = basename(path);
  const debounceMs = options.debounceMs ?? 200;
  let lastGood: AppConfig | null = options.initial ?? null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let reading = false;
  let dirty = false;

  const check = async () => {
    let loaded: Awaited<ReturnType<typeof loadConfigDetailed>>;
    try {
      loaded = await loadConfigDetailed(path, options.env);
    } catch (error) {
      if (closed) return;
      if (error instanceof ConfigError) return options.onError(error);
      throw error;
    }
    if (closed) return;
    const { config, text } = loaded;
    const ours = options.claim?.(text);
    if (ours !== undefined) {
      // The service's own write, already applied.
      lastGood = ours;
      return options.onUnchanged?.();
    }
    if (isDeepStrictEqual(config, lastGood)) return options.onUnchanged?.();
    const running = Object.keys(lastGood?.mcpServers ?? {}).length;
    if (!loaded.declaresServers && running > 0) return options.onError(removesEverything(path, running));
    lastGood = config;
    if (loaded.warnings.length > 0) options.onWarnings?.(loaded.warnings);
    options.onChange(config);
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
        await check();
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
  watcher.on('error', (error) => {
    if (closed) return;
    const reason = `cannot watch ${dirname(path)}: ${error.message}`;
    options.onError(
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
    },
  };
}

/** The refusal of a file without a servers key while servers run: it may be a typo, never "remove them all". */
function removesEverything(path: string, running: number): ConfigError {
  const reason = `names no servers (no "mcpServers" key) and would stop all ${running} running; write "mcpServers": {} to remove them all on purpose`;
  return new ConfigError(`${path}: ${reason}`, path, [{ server: null, field: 'mcpServers', message: reason }]);
}
