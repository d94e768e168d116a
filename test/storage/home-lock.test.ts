/**
 * One service per home (the home's lock, `boternity.pid`): a live owner's lock is refused with
 * one line naming it; a stale one (its pid gone) is taken over; and processes racing for the
 * lock — a fresh home or a stale lock — never both get it (the lock file is made whole, by a
 * hard link, and a stale one is moved aside and checked before it is let go).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireHomeLock } from '../../src/storage/home-lock.js';

// The contenders load the compiled module (dist/, built by the run's global setup): a node that
// loads the TypeScript through tsx spends 0.6 s more CPU on it, 25 times in this file.
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

/**
 * A process that tries for the lock of `home` once given the start (a line on its stdin),
 * says `got` or why not, and holds it a while. `ready` resolves once it is loaded and waiting.
 */
function contender(home: string): { ready: Promise<void>; go: () => void; result: Promise<string> } {
  const script = `
    const { acquireHomeLock } = await import(${JSON.stringify(LOCK_MODULE)});
    const start = new Promise((r) => process.stdin.once('data', r));
    process.stdout.write('ready;');
    await start;
    try {
      const lock = await acquireHomeLock(${JSON.stringify(home)});
      process.stdout.write('got');
      await new Promise((r) => setTimeout(r, 400));
      await lock.release();
    } catch (error) {
      process.stdout.write(error.code ?? error.message);
    }
    process.stdin.destroy();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.startsWith('ready;')) resolve();
    });
  });
  const result = new Promise<string>((resolve) => child.once('close', () => resolve(out.replace(/^ready;/, ''))));
  return { ready, go: () => child.stdin.write('go\n'), result };
}

describe('the home lock', () => {
  it('refuses a second owner while the first lives, naming it; takes a stale lock over', async () => {
    const home = await newHome();
    const lock = await acquireHomeLock(home);
    // This process holds it: another process is refused.
    const other = contender(home);
    await other.ready;
    other.go();
    expect(await other.result).toBe('home_in_use');
    await lock.release();
    // A lock whose pid is gone is stale.
    await writeFile(join(home, 'boternity.pid'), JSON.stringify({ pid: 2 ** 22 + 7, startTime: '1' }));
    const taken = await acquireHomeLock(home);
    expect(JSON.parse(await readFile(join(home, 'boternity.pid'), 'utf8')).pid).toBe(process.pid);
    await taken.release();
  });

  it('gives it to exactly one of several processes racing for it, fresh or stale', { timeout: 60_000 }, async () => {
    // Six races at once, each in its own home: three on a fresh home, three on a stale lock.
    const rounds = await Promise.all(
      Array.from({ length: 6 }, async (_, round) => {
        const home = await newHome();
        if (round % 2 === 1)
          await writeFile(join(home, 'boternity.pid'), JSON.stringify({ pid: 2 ** 22 + 7, startTime: '1' }));
        return Array.from({ length: 4 }, () => contender(home));
      }),
    );
    // Each is loaded and waiting before the start is given, to the four of a race together.
    await Promise.all(rounds.flat().map((c) => c.ready));
    for (const racing of rounds) for (const c of racing) c.go();
    for (const [round, racing] of rounds.entries()) {
      const results = await Promise.all(racing.map((c) => c.result));
      expect(
        results.filter((r) => r === 'got'),
        `round ${round}: ${results.join(', ')}`,
      ).toHaveLength(1);
    }
  });
});
