import { describe, expect, it } from 'vitest';
import { createUndeliveredTally } from '../../../src/gateway/peer/undelivered-tally.js';
import type { AuditEntry } from '../../../src/storage/audit-writer.js';
import { manualTimers } from '../../support/manual-timers.js';

describe('createUndeliveredTally', () => {
  it('writes one row per server and type per window, with the count, when the window closes', () => {
    const clock = manualTimers(Date.parse('2026-11-26T10:00:00.000Z'));
    const rows: AuditEntry[] = [];
    const tally = createUndeliveredTally({
      audit: { record: (entry) => rows.push(entry) },
      windowMs: () => 60_000,
      now: clock.now,
      setTimer: clock.setTimer,
    });
    for (let i = 0; i < 5_000; i++) tally.count('flood', 'logging_message');
    for (let i = 0; i < 7; i++) tally.count('flood', 'resource_updated');
    tally.count('other', 'logging_message');
    clock.advance(59_999);
    expect(rows).toEqual([]);
    clock.advance(1);
    expect(rows.map((r) => [r.serverName, r.eventType, r.count, r.toolName, r.durationMs, r.success])).toEqual([
      ['flood', 'logging_message', 5000, undefined, 60_000, true],
      ['flood', 'resource_updated', 7, undefined, 60_000, true],
      ['other', 'logging_message', 1, undefined, 60_000, true],
    ]);
    expect(rows[0]?.input).toEqual({ undelivered: 5_000, from: '2026-11-26T10:00:00.000Z' });
    expect(rows[0]?.at?.toISOString()).toBe('2026-11-26T10:01:00.000Z');
    // Nothing more came: nothing more is written; what comes next opens a new window.
    clock.advance(120_000);
    tally.count('flood', 'logging_message');
    tally.close();
    expect(rows.map((r) => r.count)).toEqual([5000, 7, 1, 1]);
    expect(clock.pending()).toBe(0);
  });
});
