/** The bounded resumption buffer of a session (SPEC G1, X8). */
import { describe, expect, it } from 'vitest';
import { createSseEventLog } from '../../src/http/sse-event-log.js';

describe('createSseEventLog', () => {
  it('replays the events of the same stream after an id, leaving priming events out', () => {
    const log = createSseEventLog();
    const primed = log.append('a', null);
    const a1 = log.append('a', '{"n":1}');
    log.append('b', '{"n":"b"}');
    const a2 = log.append('a', '{"n":2}');
    expect(log.streamOf(primed)).toBe('a');
    expect(log.after(primed)).toEqual([
      { id: a1, data: '{"n":1}' },
      { id: a2, data: '{"n":2}' },
    ]);
    expect(log.after(a2)).toEqual([]);
  });

  it('knows nothing of ids it never gave or no longer holds', () => {
    const log = createSseEventLog({ maxEvents: 2 });
    const first = log.append('a', '1');
    log.append('a', '2');
    log.append('a', '3');
    for (const id of [first, '0', '999', 'x', '', '1e3', '-1']) {
      expect(log.streamOf(id)).toBeUndefined();
      expect(log.after(id)).toEqual([]);
    }
  });

  it('stays within its byte bound, dropping the oldest events first', () => {
    const log = createSseEventLog({ maxBytes: 1_000, maxEvents: 10_000 });
    const ids = Array.from({ length: 500 }, (_, i) => log.append('s', `"${'é'.repeat(40)}${i}"`));
    expect(log.bytes()).toBeLessThanOrEqual(1_000);
    expect(log.streamOf(ids[0] as string)).toBeUndefined();
    // Each event is 85 bytes ("é" takes two): the newest 11 fit.
    expect(log.streamOf(ids.at(-12) as string)).toBeUndefined();
    const kept = log.after(ids.at(-11) as string);
    expect(kept.map((e) => e.data.slice(-4, -1))).toEqual([
      '490',
      '491',
      '492',
      '493',
      '494',
      '495',
      '496',
      '497',
      '498',
      '499',
    ]);
  });
});
