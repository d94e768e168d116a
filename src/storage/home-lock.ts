/**
 * One service per home directory: two would share the process ledger and end each
 * other's stdio children. The lock file holds the owner's pid and /proc start time, so a
 * lock left by a crashed run (or a reused pid) is recognised as stale and taken over.
 * @module
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HubError } from '../errors.js';
import { isAlive, readStartTime } from '../upstream/process-tree.js';

const LOCK_FILE = 'boternity.pid';

type Owner = { pid: number; startTime: string | null };

/** A held lock; `release()` removes the file if it is still ours. */
export type HomeLock = { path: string; release(): Promise<void> };

const readOwner = async (path: string): Promise<Owner | null> => {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Owner>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, startTime: parsed.startTime ?? null } : null;
  } catch {
    return null;
  }
};

/** The live process that holds the lock of `home`, or null (no lock, or a stale one). */
export async function readHomeOwner(home: string): Promise<{ pid: number } | null> {
  const owner = await readOwner(join(home, LOCK_FILE));
  return owner && isAlive(owner.pid) && readStartTime(owner.pid) === owner.startTime ? { pid: owner.pid } : null;
}

/** Take the lock of `home`, or throw naming the process that holds it. */
export async function acquireHomeLock(home: string): Promise<HomeLock> {
  const path = join(home, LOCK_FILE);
  const me: Owner = { pid: process.pid, startTime: readStartTime(process.pid) };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o600 });
      return {
        path,
        async release() {
          const owner = await readOwner(path);
          if (owner?.pid === me.pid) await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path);
    if (owner && owner.pid !== me.pid && isAlive(owner.pid) && readStartTime(owner.pid) === owner.startTime) {
      throw new HubError(
        'home_in_use',
        `another boternity (pid ${owner.pid}) is using ${home}: stop it, or give this one its own --home`,
      );
    }
    // Stale: its owner is gone or the pid now belongs to another process.
    await unlink(path).catch(() => undefined);
  }
  throw new HubError('home_in_use', `could not take the lock ${path}: remove it if no boternity is running`);
}
