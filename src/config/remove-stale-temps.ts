/**
 * Clean-up after a writer killed in the middle of an atomic write (kill -9 between the temp
 * file and the rename): its temp file is left beside the file it was writing. Removed at the
 * next start are only files named as the atomic writer names them whose writer is gone, or
 * that are older than any write can take; a user's file never matches the name.
 * @module
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempFileWriter } from './temp-file-name.js';

/** A temp file older than this is left over even if its pid is alive again (pids are reused). */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** Remove the temp files a dead writer left beside `path`; resolves with the names removed. Never throws. */
export async function removeStaleTemps(path: string, now: number = Date.now()): Promise<string[]> {
  const dir = dirname(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = tempFileWriter(path, name);
    if (pid === null || pid === process.pid) continue;
    try {
      const info = await lstat(join(dir, name));
      if (!info.isFile()) continue;
      if (isAlive(pid) && now - info.mtimeMs < ABANDONED_AFTER_MS) continue;
      await rm(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: left as it is.
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
