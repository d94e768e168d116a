/**
 * A SIGTERM that reaches `bnity serve` while it is still starting (the home locked, the
 * upstreams connecting, the database opening) is not the default "terminate now": the
 * service finishes starting, then drains, exits 0 and releases its home.
 */
import { watch } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/upstream/process-tree.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { spawnBnity } from '../support/serve-process.js';

const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

describe('bnity serve and a SIGTERM during its start', () => {
  it('finishes starting, drains, exits 0 and releases its home', async () => {
    const home = await mkdtemp(join(tmpdir(), 'bnity-early-term-'));
    homes.push(home);
    const config = join(home, 'boternity.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
    );
    const port = String(await freePort());
    const lock = join(home, 'boternity.pid');
    // The home's lock is the start's first step, well before the service serves: the signal
    // goes the moment the lock file appears (inotify, not a poll that a loaded machine can
    // let slip past the start), what had been printed by then noted.
    let printedAtSignal: string | null = null;
    const locked = new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        watcher.close();
        reject(new Error('serve did not take its home within 30 s'));
      }, 30_000);
      const watcher = watch(home, (_event, name) => {
        if (name !== 'boternity.pid' || printedAtSignal !== null) return;
        printedAtSignal = run.stdout();
        run.child.kill('SIGTERM');
        clearTimeout(timeout);
        watcher.close();
        resolve();
      });
    });
    const run = spawnBnity(['serve', '--config', config, '--home', home, '--port', port], {
      BOTERNITY_LOG_LEVEL: 'info',
    });
    try {
      await locked;
      expect(printedAtSignal).not.toBeNull();
      expect(printedAtSignal).not.toContain('boternity is running');
      const { code, signal } = await run.exit;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(run.stdout()).toContain('boternity stopped');
      await expect(readFile(lock)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      if (run.child.pid && isAlive(run.child.pid)) run.child.kill('SIGKILL');
    }
  });
});
