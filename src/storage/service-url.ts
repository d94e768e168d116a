/**
 * Where the service of a home listens, recorded beside its pid file (`boternity.url`), so
 * that the CLI and the stdio bridge find a service on any port without `--url`. The record
 * names its writer (pid and /proc start time, as the lock does): one left by a crashed run,
 * or by a pid now reused, is ignored. The service removes it when it stops cleanly.
 * @module
 */
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import { isAlive, readStartTime } from '../upstream/process-tree.js';

/** The file, in the home directory. */
export const SERVICE_URL_FILE = 'boternity.url';

type UrlRecord = { url: string; pid: number; startTime: string | null };

/** Record that this process serves `url` for `home`; resolves with the function that removes the record. */
export async function recordServiceUrl(home: string, url: string): Promise<() => Promise<void>> {
  const path = join(home, SERVICE_URL_FILE);
  const me: UrlRecord = { url, pid: process.pid, startTime: readStartTime(process.pid) };
  await writeFileAtomic(path, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  return async () => {
    // Only our own: a service started after us in the same home (once we let go of the lock) keeps its record.
    const now = await readRecord(path);
    if (now?.pid === me.pid && now.startTime === me.startTime) await unlink(path).catch(() => undefined);
  };
}

/** The URL the live service of `home` recorded, or null (none, unreadable, or its process is gone). */
export async function readServiceUrl(home: string): Promise<string | null> {
  const record = await readRecord(join(home, SERVICE_URL_FILE));
  if (!record || !isAlive(record.pid) || readStartTime(record.pid) !== record.startTime) return null;
  return record.url;
}

async function readRecord(path: string): Promise<UrlRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<UrlRecord>;
    if (typeof parsed.url !== 'string' || typeof parsed.pid !== 'number') return null;
    return { url: parsed.url, pid: parsed.pid, startTime: parsed.startTime ?? null };
  } catch {
    return null;
  }
}
