/**
 * Atomic file writes (SPEC C4): the text goes to a temp file beside the target, is flushed,
 * and then replaces (rename) or creates (hard link) the target, so a reader or a crash never
 * sees half a file. A path that is a symlink has its target replaced, the link kept. A writer that must not overwrite someone else's save checks, with
 * `commitIf`, right before the rename (the check and the rename are back to back, with no
 * turn of the event loop between them).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { link, open, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempFileName } from './temp-file-name.js';

/** Options for atomic writes; `mode` defaults to the existing file's (or the umask default). */
export type WriteFileAtomicOptions = {
  readonly mode?: number;
  /** Asked once the text is on disk, just before it replaces `path`: false writes nothing. */
  readonly commitIf?: () => boolean;
};

/** Replace `path` with `text` atomically; false when `commitIf` said no. The temp file never outlives the call. */
export async function writeFileAtomic(
  given: string,
  text: string,
  options: WriteFileAtomicOptions = {},
): Promise<boolean> {
  // A symlink (a config kept in a dotfiles repository) stays one: its target is replaced.
  const path = await realpath(given).catch(() => given);
  const mode = options.mode ?? (await existingMode(path));
  const temp = await writeTemp(path, text, mode);
  try {
    if (options.commitIf && !options.commitIf()) {
      await rm(temp, { force: true });
      return false;
    }
    // Synchronous, so that nothing runs between `commitIf`'s look at the file and the rename.
    renameSync(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
  return true;
}

/** Create `path` with `text` atomically unless it exists; false if it already did (never overwrites). */
export async function createFileAtomic(
  path: string,
  text: string,
  options: WriteFileAtomicOptions = {},
): Promise<boolean> {
  const temp = await writeTemp(path, text, options.mode);
  try {
    // link() fails with EEXIST instead of replacing: create-if-absent and atomic in one step.
    await link(temp, path);
    await syncDirectory(dirname(path));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // No hard links on this file system: fall back to an exclusive (not atomic) create.
    return await createExclusive(path, text, options.mode);
  } finally {
    await rm(temp, { force: true });
  }
}

async function createExclusive(path: string, text: string, mode: number | undefined): Promise<boolean> {
  try {
    await writeFile(path, text, { flag: 'wx', mode });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function writeTemp(path: string, text: string, mode: number | undefined): Promise<string> {
  const temp = join(dirname(path), tempFileName(path, process.pid, randomBytes(6).toString('hex')));
  const handle = await open(temp, 'wx', mode);
  try {
    // The umask applies to open(); chmod gives the exact mode asked for (e.g. a 0600 keystore).
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  return temp;
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** Make the rename itself durable; not every platform can open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the directory entry is best effort.
  }
}
