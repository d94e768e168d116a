/**
 * One service per home (the home's lock, `boternity.pid`): a live owner's lock is refused with
 * one line naming it; a stale one (its pid gone) is taken over; and processes racing for the
 * lock — a fresh home or a stale lock — never both get it (the lock file is made whole, by a
 * hard link, and a stale one is moved aside and checked before it is let go).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireHomeLock } from '../../src/storage/home-lock.js';
import { waitFor } from '../support/wait-for.js';

// The contenders load the compiled module (dist/, built by the run's global setup): a node that
// loads the TypeScript through tsx spends 0.6 s more CPU on it, 24 times in the race below.
const LOCK_MODULE = fileURLToPath(new URL('../../dist/src/storage/home-lock.js', import.meta.url));
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});
const newHome = async () => {
  const home = await mkdtemp(join(tmpdir(), 'bnity-lock-'));
  homes.push(home);
  return home;
};

/** A process that tries for the lock of `home` once `go` exists, says `got` or why not, holds it a while. */
function contender(home: string, go: string): Promise<string> {
  const script = `
    const { existsSync, writeFileSync } = await import('node:fs');
    const { acquireHomeLock } = await import(${JSON.stringify(LOCK_MODULE)});
    writeFileSync(${JSON.stringify(go)} + '.ready.' + process.pid, '');
    while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));
    try {
      const lock = await acquireHomeLock(${JSON.stringify(home)});
      process.stdout.write('got');
      await new Promise((r) => setTimeout(r, 400));
      await lock.release();
    } catch (error) {
      process.stdout.write(error.code ?? error.message);
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.once('close', () => resolve(out)));
}

describe('the home lock', () => {
  it('refuses a second owner while the first lives, naming it; takes a stale lock over', async () => {
    const home = await newHome();
    const lock = await acquireHomeLock(home);
    // This process holds it: another process is refused.
    const go = join(home, 'go');
    await writeFile(go, '');
    expect(await contender(home, go)).toBe('home_in_use');
    await lock.release();
    // A lock whose pid is gone is stale.
    await writeFile(join(home, 'boternity.pid'), JSON.stringify({ pid: 2 ** 22 + 7, startTime: '1' }));
    const taken = await acquireHomeLock(home);
    expect(JSON.parse(await readFile(join(home, 'boternity.pid'), 'utf8')).pid).toBe(process.pid);
    await taken.release();
  });

  it('gives it to exactly one of several processes racing for it, fresh or stale', { timeout: 60_000 }, async () => {
    for (let round = 0; round < 6; round++) {
      const home = await newHome();
      if (round % 2 === 1)
        await writeFile(join(home, 'boternity.pid'), JSON.stringify({ pid: 2 ** 22 + 7, startTime: '1' }));
      const go = join(home, 'go');
      const racing = Array.from({ length: 4 }, () => contender(home, go));
      // Each is loaded and waiting before the start is given.
      await waitFor(async () => (await readdir(home)).filter((f) => f.startsWith('go.ready.')).length === 4, {
        what: 'four contenders ready',
        timeoutMs: 30_000,
      });
      await writeFile(go, '');
      const results = await Promise.all(racing);
      expect(
        results.filter((r) => r === 'got'),
        `round ${round}: ${results.join(', ')}`,
      ).toHaveLength(1);
    }
  });
});
