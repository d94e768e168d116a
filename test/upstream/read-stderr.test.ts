/**
 * A stdio child flooding its stderr (S6, X8): the bounded log costs the event loop next to
 * nothing per line and keeps the last lines; under a flood the pipe is read at most at its
 * rate, the child waiting, and nothing is lost.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { readStderr } from '../../src/upstream/read-stderr.js';
import { createStderrLog } from '../../src/upstream/stderr-log.js';

/** A real child writing `bytes` of `line`s (newlines) to stderr, then two lines of its own. */
function flooder(bytes: number, line = '\n') {
  const script = `process.stderr.write(${JSON.stringify(line)}.repeat(${Math.floor(bytes / line.length)})); process.stderr.write('last but one\\nlast\\n');`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
}

describe('reading a flooding stderr', () => {
  it('8 MiB of newlines cost the event loop little and the last lines are kept', async () => {
    const log = createStderrLog(500);
    const child = flooder(8 * 1024 * 1024);
    const before = performance.eventLoopUtilization();
    readStderr(child.stderr, log, Number.POSITIVE_INFINITY);
    await once(child, 'close');
    const busy = performance.eventLoopUtilization(before);
    expect(log.lines().slice(-2)).toEqual(['last but one', 'last']);
    expect(log.lines()).toHaveLength(500);
    // Before: a shift of the 500-line array per line, about 0.4 s of loop time per MiB.
    expect(busy.active, `the loop was busy ${Math.round(busy.active)} ms reading 8 MiB`).toBeLessThan(500);
  });

  it('past its rate the pipe rests: the child waits, and every line comes, in order', async () => {
    const log = createStderrLog(100_000);
    const began = performance.now();
    const child = flooder(1024 * 1024, `${'x'.repeat(63)}\n`);
    readStderr(child.stderr, log, 256 * 1024);
    await once(child, 'close');
    // 256 KiB a second: four seconds' worth take two pauses at least (what the socket
    // buffers when the child exits is read at once).
    expect(performance.now() - began).toBeGreaterThan(1_900);
    expect(log.lines()).toHaveLength(16 * 1024 + 2);
    expect(log.lines().slice(-2)).toEqual(['last but one', 'last']);
  });
});
