/**
 * Read a file only when it is a regular file. A FIFO put where the config was makes `readFile`
 * wait for a writer forever (holding the config writer's queue and a libuv thread), and a
 * device such as /dev/zero never ends; so the file is opened non-blocking (an open of a FIFO
 * then returns at once) and checked with `fstat` on that same descriptor before one byte is read.
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

// O_NOCTTY: a terminal named as the config never becomes this process's controlling terminal.
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The text of `path`; throws `fs`'s error, or one with code `ENOTREG` saying what the path is instead. */
export async function readRegularFile(path: string): Promise<string> {
  const handle = await open(path, FLAGS);
  try {
    refuseIrregular(await handle.stat());
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** {@link readRegularFile}, synchronously (for a check that must run back to back with a rename). */
export function readRegularFileSync(path: string): string {
  const fd = openSync(path, FLAGS);
  try {
    refuseIrregular(fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function refuseIrregular(stats: Stats): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
  throw Object.assign(new Error(`it is ${kindOf(stats)}, not a regular file`), { code: 'ENOTREG' });
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}
