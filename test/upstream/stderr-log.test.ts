import { describe, expect, it } from 'vitest';
import { createStderrLog } from '../../src/upstream/stderr-log.js';

describe('createStderrLog', () => {
  it('keeps only the last maxLines lines', () => {
    const log = createStderrLog(3);
    log.write('one\ntwo\nthree\nfour\n');
    expect(log.lines()).toEqual(['two', 'three', 'four']);
    expect(log.last()).toBe('four');
  });

  it('joins lines split across chunks and shows a pending partial line', () => {
    const log = createStderrLog(10);
    log.write('hel');
    expect(log.lines()).toEqual(['hel']);
    log.write('lo\r\nwor');
    log.write('ld\n');
    expect(log.lines()).toEqual(['hello', 'world']);
  });

  it('truncates very long lines', () => {
    const log = createStderrLog(5, { maxLineLength: 10 });
    log.write('x'.repeat(25));
    log.write(`${'y'.repeat(30)}\nshort\n`);
    const [long, short] = log.lines();
    expect(long).toBe(`${'x'.repeat(10)} …[truncated]`);
    expect(short).toBe('short');
  });

  it('tails what the current process wrote since the last mark, never the mark, bounded', () => {
    const log = createStderrLog(10);
    log.write('the old process\n');
    log.mark('[boternity] started pid 2');
    expect(log.tail()).toBe('');
    log.write('one\n\ntwo\nthree\nfour');
    expect(log.tail()).toBe('two | three | four');
    expect(log.tail({ lines: 1, chars: 3 })).toBe('…our');
  });

  it('keeps nothing when maxLines is 0', () => {
    const log = createStderrLog(0);
    log.write('a\nb');
    expect(log.lines()).toEqual([]);
    expect(log.last()).toBe('');
  });
});
