/**
 * One service per home directory: two would share the process ledger and end each
 * other's stdio children. The lock file holds the owner's pid and /proc start time, so a
 * lock left by a crashed run (or a reused pid) is recognised as stale and taken over.
 *
 * Two starts at once never both get it: the lock file appears whole (written beside it, then
 * hard-linked into place, which fails if it exists), so no one reads an empty lock and takes
 * it for a stale one; and a stale lock is removed by one start at a time ({@link takeOver}).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

const lives = (owner: Owner | null): owner is Owner =>
  owner !== null && isAlive(owner.pid) && readStartTime(owner.pid) === owner.startTime;

const same = (a: Owner | null, b: Owner | null) => a?.pid === b?.pid && a?.startTime === b?.startTime;

/** The live process that holds the lock of `home`, or null (no lock, or a stale one). */
export async function readHomeOwner(home: string): Promise<{ pid: number } | null> {
  const owner = await readOwner(join(home, LOCK_FILE));
  return lives(owner) ? { pid: owner.pid } : null;
}

/** Make `path` holding `text` unless it exists: false if it did. Whole from its first moment. */
async function createWhole(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temp, text, { flag: 'wx', mode: 0o600 });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Remove the stale lock `read` from `path`, one start at a time: the takeover is itself a lock
 * (`<path>.takeover`, made whole as the lock is), and its holder removes the lock only if it
 * still holds what was read. While a stale lock is in place no start can make a new one, and
 * only the takeover's holder removes it, so no start ever removes another's fresh lock.
 * Resolves once this start may try again.
 */
async function takeOver(path: string, read: Owner | null, me: Owner): Promise<void> {
  const takeover = `${path}.takeover`;
  if (await createWhole(takeover, `${JSON.stringify(me)}\n`)) {
    try {
      const still = await readOwner(path);
      if (same(still, read) && !lives(still)) await unlink(path).catch(() => undefined);
    } finally {
      await unlink(takeover).catch(() => undefined);
    }
    return;
  }
  // Another start is taking it over; one that died doing so left its takeover behind.
  if (!lives(await readOwner(takeover))) await unlink(takeover).catch(() => undefined);
  else await sleep(5);
}

/** Take the lock of `home`, or throw naming the process that holds it. */
export async function acquireHomeLock(home: string): Promise<HomeLock> {
  const path = join(home, LOCK_FILE);
  const me: Owner = { pid: process.pid, startTime: readStartTime(process.pid) };
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await createWhole(path, `${JSON.stringify(me)}\n`)) {
      return {
        path,
        async release() {
          const owner = await readOwner(path);
          if (owner?.pid === me.pid) await unlink(path).catch(() => undefined);
        },
      };
    }
    const owner = await readOwner(path);
    if (owner && owner.pid !== me.pid && lives(owner)) {
      throw new HubError(
        'home_in_use',
        `another boternity (pid ${owner.pid}) is using ${home}: stop it, or give this one its own --home`,
      );
    }
    // Stale: its owner is gone or the pid now belongs to another process.
    await takeOver(path, owner, me);
  }
  throw new HubError('home_in_use', `could not take the lock ${path}: remove it if no boternity is running`);
}
