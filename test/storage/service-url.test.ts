/**
 * The service's URL recorded in its home (`boternity.url`, issue 18 item 6): read back while
 * its writer lives, ignored once that process is gone, removed by its writer only.
 */
import { spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServiceUrl, recordServiceUrl, SERVICE_URL_FILE } from '../../src/storage/service-url.js';
import { readStartTime } from '../../src/upstream/process-tree.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-url-');

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('recordServiceUrl / readServiceUrl', () => {
  it('records the URL (0600) beside the pid file, reads it back, and removes it', async () => {
    const home = await tempDir();
    const remove = await recordServiceUrl(home, 'http://127.0.0.1:45678');
    const path = join(home, SERVICE_URL_FILE);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      url: 'http://127.0.0.1:45678',
      pid: process.pid,
      startTime: readStartTime(process.pid),
    });
    expect(await readServiceUrl(home)).toBe('http://127.0.0.1:45678');
    await remove();
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
    expect(await readServiceUrl(home)).toBeNull();
  });

  it('ignores a record whose process is gone, or that is not a record, and removes only its own', async () => {
    const home = await tempDir();
    const path = join(home, SERVICE_URL_FILE);
    await writeFile(path, JSON.stringify({ url: 'http://127.0.0.1:1', pid: await deadPid(), startTime: '1' }));
    expect(await readServiceUrl(home)).toBeNull();
    await writeFile(path, 'not json');
    expect(await readServiceUrl(home)).toBeNull();
    // A later service's record (another pid) is not removed by an earlier one's stop.
    const remove = await recordServiceUrl(home, 'http://127.0.0.1:2');
    const other = JSON.stringify({ url: 'http://127.0.0.1:3', pid: 1, startTime: readStartTime(1) });
    await writeFile(path, other);
    await remove();
    expect(await readFile(path, 'utf8')).toBe(other);
  });
});
