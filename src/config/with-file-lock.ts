/**
 * A cross-process lock around a read-modify-write of a file (SPEC C4): the config file and the
 * keystore are written by the service and by `bnity` commands alike. `proper-lockfile` makes a
 * `<file>.lock` directory (atomic on every file system) and refreshes its mtime while held, so
 * a lock left by a crashed process goes stale after `staleMs` and is taken over.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { lock } from 'proper-lockfile';
import { FileLockedError, HubError } from '../errors.js';

/** Options of {@link withFileLock}. */
export type FileLockOptions = {
  /** How long to wait for another holder to finish (default 15 s). */
  readonly waitMs?: number;
  /** A lock not refreshed for this long belongs to a dead process (default 10 s). */
  readonly staleMs?: number;
};

/** Run `task` holding the lock of `path` (which need not exist); throws {@link FileLockedError} when it cannot be had. */
export async function withFileLock<T>(path: string, task: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const waitMs = options.waitMs ?? 15_000;
  const staleMs = options.staleMs ?? 10_000;
  let compromised: Error | null = null;
  const onCompromised = (error: Error) => {
    compromised = error;
  };
  const deadline = Date.now() + waitMs;
  let release: (() => Promise<void>) | null = null;
  while (release === null) {
    try {
      release = await lock(path, { realpath: false, stale: staleMs, retries: 0, onCompromised });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') {
        throw new HubError('internal', `cannot lock ${path} for writing: ${code ?? (error as Error).message}`, {
          cause: error,
        });
      }
      if (Date.now() >= deadline) throw new FileLockedError(path, waitMs);
      // Spread the waiters out so they do not retry in step.
      await sleep(5 + Math.floor(Math.random() * 25));
    }
  }
  let result: T;
  try {
    result = await task();
  } finally {
    await release().catch(() => undefined);
  }
  if (compromised !== null) {
    throw new HubError('conflict', `the lock of ${path} was lost while writing: check the file and try again`, {
      cause: compromised,
    });
  }
  return result;
}
