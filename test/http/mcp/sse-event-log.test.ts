/** The bounded resumption buffer of a session (SPEC G1, X8). */
import { describe, expect, it } from 'vitest';
import { createSseBufferPool } from '../../../src/http/io/sse-buffer-pool.js';
import { createSseEventLog, STANDALONE } from '../../../src/http/mcp/sse-event-log.js';

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

describe('createSseBufferPool', () => {
  it('bounds every log together, dropping the oldest event of any log first, and says a dropped id was evicted', () => {
    const pool = createSseBufferPool({ maxBytes: () => 10 });
    const a = createSseEventLog({ pool });
    const b = createSseEventLog({ pool });
    const a1 = a.append('s', 'aaaa');
    const b1 = b.append('s', 'bbbb');
    expect(pool.bytes()).toBe(8);
    // 12 bytes would be held: a's first event is the oldest of all, and goes.
    b.append('s', 'cccc');
    expect(pool.bytes()).toBe(8);
    expect(a.bytes()).toBe(0);
    expect(a.streamOf(a1)).toBeUndefined();
    expect(a.evicted(a1)).toBe(true);
    expect(b.streamOf(b1)).toBe('s');
    // An id never given is not "evicted": it is unknown.
    expect(a.evicted('99')).toBe(false);
    expect(a.evicted('x')).toBe(false);
  });

  it('gives a closed log its bytes back, and a log over its own bound evicts its own first', () => {
    const pool = createSseBufferPool({ maxBytes: () => 100 });
    const a = createSseEventLog({ pool, maxBytes: 6 });
    const b = createSseEventLog({ pool });
    b.append('s', 'b'.repeat(50));
    a.append('s', 'aaaa');
    a.append('s', 'aaaa');
    expect(a.bytes()).toBe(4);
    expect(pool.bytes()).toBe(54);
    b.dispose();
    expect(pool.bytes()).toBe(4);
    a.dispose();
    expect(pool.bytes()).toBe(0);
  });

  it('names its replica in each id in cluster mode, and tells another replica’s ids by their stream', () => {
    const log = createSseEventLog({ tag: '0123456789' });
    const got = log.append(STANDALONE, '{"n":1}');
    const posted = log.append('s1', null);
    const answer = log.append('s1', '{"n":2}');
    expect([got, posted, answer]).toEqual(['0123456789g1', '0123456789p2', '0123456789p3']);
    expect(log.streamOf(got)).toBe(STANDALONE);
    expect(log.after(posted)).toEqual([{ id: answer, data: '{"n":2}' }]);
    expect([log.foreign(got), log.foreign(answer)]).toEqual([null, null]);
    // Another replica's: not found here, and which kind of stream it was on.
    expect(log.streamOf('abcdefabcdp2')).toBeUndefined();
    expect(log.foreign('abcdefabcdg1')).toBe('standalone');
    expect(log.foreign('abcdefabcdp2')).toBe('request');
    // Neither this replica's nor another's: unknown, as without a tag.
    for (const id of ['2', 'x', '0123456789q1', 'abcdefabcdp', '']) {
      expect(log.streamOf(id)).toBeUndefined();
      expect(log.foreign(id)).toBeNull();
    }
    // Without a tag, ids stay plain numbers and nothing is foreign.
    const plain = createSseEventLog();
    expect(plain.append(STANDALONE, '1')).toBe('1');
    expect(plain.foreign('abcdefabcdg1')).toBeNull();
  });
});
