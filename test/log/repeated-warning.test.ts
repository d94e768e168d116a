import { describe, expect, it } from 'vitest';
import { createRepeatedWarning } from '../../src/log/repeated-warning.js';
import { manualTimers } from '../support/manual-timers.js';

function logged() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    log: { warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) },
  };
}

describe('createRepeatedWarning', () => {
  it('says the first, then sums the rest up once per interval and at close', () => {
    const clock = manualTimers();
    const { lines, log } = logged();
    const warning = createRepeatedWarning(log as never, 'upstream transport error', {
      intervalMs: 60_000,
      now: clock.now,
      setTimer: clock.setTimer,
    });
    for (let i = 0; i < 1_000; i++) warning.warn({ line: `garbage ${i}` });
    expect(lines).toEqual([{ fields: { line: 'garbage 0' }, message: 'upstream transport error' }]);
    clock.advance(60_000);
    expect(lines[1]).toEqual({
      fields: { line: 'garbage 999', repeated: 999, seconds: 60 },
      message: 'upstream transport error: 999 more in the last 60 s',
    });
    clock.advance(30_000);
    warning.warn({ line: 'one more' });
    clock.advance(10_000);
    warning.close();
    expect(lines).toHaveLength(3);
    expect(lines[2]?.message).toBe('upstream transport error: 1 more in the last 40 s');
    expect(clock.pending()).toBe(0);
  });

  it('after a quiet interval, the next one is said in full again', () => {
    const clock = manualTimers();
    const { lines, log } = logged();
    const warning = createRepeatedWarning(log as never, 'x', {
      intervalMs: 1_000,
      now: clock.now,
      setTimer: clock.setTimer,
    });
    warning.warn({ n: 1 });
    clock.advance(1_000);
    warning.warn({ n: 2 });
    warning.close();
    expect(lines.map((l) => l.message)).toEqual(['x', 'x']);
  });
});
