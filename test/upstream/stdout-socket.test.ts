import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StdioChild, spawnStdio } from '../../src/upstream/spawn-stdio.js';
import { createStderrLog } from '../../src/upstream/stderr-log.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
/**
 * At the first byte on stdin, one line of 70,000 bytes in one write, then the file `argv[1]`;
 * the child then waits for its stdin to end.
 */
const LONG_LINE_ON_CUE = `const fs = require('node:fs');
process.stdin.once('data', () => {
  process.stdout.write('x'.repeat(69_999) + '\\n');
  fs.writeFileSync(process.argv[1], '');
});
process.stdin.on('end', () => process.exit(0));`;

/** Cues the child, then holds the loop until it has written: the whole line waits in the socket. */
function cueAndHold(child: StdioChild, done: string): void {
  child.process.stdin?.write('go\n');
  const deadline = Date.now() + 10_000;
  while (!existsSync(done)) if (Date.now() > deadline) throw new Error('the child did not write its line');
}

const started: StdioChild[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) {
    child.process.stdin?.end();
    await new Promise<void>((resolve) => child.onceClosed(resolve));
  }
});

async function readAll(child: StdioChild): Promise<{ reads: number[]; text: () => string }> {
  const reads: number[] = [];
  const kept: Buffer[] = [];
  child.readStdout((chunk) => {
    reads.push(chunk.length);
    // Lent for the call only: copied to be kept.
    kept.push(Buffer.from(chunk));
  });
  return { reads, text: () => Buffer.concat(kept).toString('latin1') };
}

const tempDir = useTempDirs('stdout-socket-test-');

/** Spawns `script` with `TMPDIR` at `tmp` while the spawn reads it (synchronously, at its call). */
function spawnWithTmp(tmp: string, script: string, ...args: string[]): Promise<StdioChild> {
  const was = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    return spawnStdio({
      config: { command: node, args: ['-e', script, ...args], env: {} },
      stderr: createStderrLog(10),
      onSpawn: () => undefined,
      setsidPath: null,
    });
  } finally {
    if (was === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = was;
  }
}

describe('a stdio child’s stdout', () => {
  it('is a socket read into one buffer: a 70 KB line in one read, and nothing left in the temp dir', async () => {
    const scratch = await tempDir();
    const tmp = join(scratch, 'tmp');
    mkdirSync(tmp);
    const done = join(scratch, 'one');
    const child = await spawnWithTmp(tmp, LONG_LINE_ON_CUE, done);
    // The pair's directory is gone once the child has its end.
    expect(readdirSync(tmp)).toEqual([]);
    started.push(child);
    expect(child.stdout).not.toBe(child.process.stdout);
    const { reads, text } = await readAll(child);
    cueAndHold(child, done);
    await waitFor(() => text().length === 70_000, { what: 'the child’s line' });
    expect(text()).toBe(`${'x'.repeat(69_999)}\n`);
    // Node's pipe reads 64 KiB at a time: [65536, 4464].
    expect(reads).toEqual([70_000]);
  });

  it('is Node’s pipe where no socket can be made (no temp dir), and reads the same', async () => {
    const scratch = await tempDir();
    const child = await spawnWithTmp(join(scratch, 'no-such-dir'), LONG_LINE_ON_CUE, join(scratch, 'two'));
    started.push(child);
    expect(child.stdout).toBe(child.process.stdout);
    const { reads, text } = await readAll(child);
    cueAndHold(child, join(scratch, 'two'));
    await waitFor(() => text().length === 70_000, { what: 'the child’s line' });
    expect(text()).toBe(`${'x'.repeat(69_999)}\n`);
    expect(reads).toEqual([65_536, 4_464]);
  });

  it('is closed only once the child has exited and all it wrote is read', async () => {
    const child = await spawnStdio({
      config: { command: node, args: ['-e', `process.stdout.write('y'.repeat(300_000) + '\\n')`], env: {} },
      stderr: createStderrLog(10),
      onSpawn: () => undefined,
      setsidPath: null,
    });
    const { text } = await readAll(child);
    await new Promise<void>((resolve) => child.onceClosed(resolve));
    expect(child.hasClosed()).toBe(true);
    expect(text().length).toBe(300_001);
  });
});
