/**
 * The pool of pre-spawned children (ADR 032) with a real child: taken once, only by its
 * server with the same spawn; stderr held until adoption, bounded, then written through;
 * the rest ended with their process group.
 */
import { describe, expect, it } from 'vitest';
import { createPrespawned, createStderrRelay } from '../../src/upstream/prespawned.js';
import { isAlive } from '../../src/upstream/proc-stat.js';
import { spawnKey, spawnStdio } from '../../src/upstream/spawn-stdio.js';
import { createStderrLog } from '../../src/upstream/stderr-log.js';
import { waitFor } from '../support/wait-for.js';

const config = {
  command: process.execPath,
  args: ['-e', 'process.stderr.write("early\\n"); setInterval(() => {}, 1000)'],
  env: { PRESPAWNED_TEST: '1' },
};

async function startOne() {
  const relay = createStderrRelay();
  const child = await spawnStdio({ config, stderr: relay, onSpawn: () => undefined });
  const key = spawnKey(config);
  if (key === null || child.pid === null) throw new Error('the test child did not spawn');
  return { pool: createPrespawned(new Map([['one', { key, child, relay }]])), child };
}

describe('createPrespawned', () => {
  it('hands the child over once, to its server with the same spawn, with its early stderr', async () => {
    const { pool, child } = await startOne();
    try {
      const fresh = () => createStderrLog(10);
      expect(pool.take('two', config, undefined, fresh)).toBeUndefined();
      expect(pool.take('one', { ...config, env: { PRESPAWNED_TEST: '2' } }, undefined, fresh)).toBeUndefined();
      expect(pool.take('one', { ...config, cwd: '/' }, undefined, fresh)).toBeUndefined();
      const kept = createStderrLog(10);
      kept.write('an earlier process\n');
      const taken = pool.take('one', config, kept, fresh);
      expect(taken?.spawned).toBe(child);
      expect(taken?.stderr).toBe(kept);
      expect(pool.take('one', config, kept, fresh)).toBeUndefined();
      await waitFor(() => kept.lines().includes('early'), { what: 'the early stderr line' });
      expect(kept.lines()).toEqual(['an earlier process', `[boternity] started pid ${child.pid}`, 'early']);
      // Taken: not the pool's to end.
      await pool.endRest(100);
      expect(isAlive(child.pid as number)).toBe(true);
    } finally {
      child.process.kill('SIGKILL');
    }
  });

  it('ends the children not taken, and takes none after', async () => {
    const { pool, child } = await startOne();
    expect(pool.waiting()).toEqual(['one']);
    await pool.endRest(1_000);
    expect(isAlive(child.pid as number)).toBe(false);
    expect(pool.waiting()).toEqual([]);
    expect(pool.take('one', config, undefined, () => createStderrLog(10))).toBeUndefined();
  });
});

describe('createStderrRelay', () => {
  it('holds at most 256 KiB before adoption (the oldest let go), then writes through', () => {
    const relay = createStderrRelay();
    const chunk = `${'x'.repeat(64 * 1024 - 1)}\n`;
    relay.write('first\n');
    for (let i = 0; i < 5; i++) relay.write(chunk);
    const sink = createStderrLog(100, { maxLineLength: 100 * 1024 });
    relay.adopt(sink);
    expect(sink.lines()).toHaveLength(4);
    expect(sink.lines()).not.toContain('first');
    relay.write('after\n');
    expect(sink.last()).toBe('after');
  });
});
