import { describe, expect, it } from 'vitest';
import { createNotificationLimits, type FloodChange } from '../../src/upstream/notification-limits.js';
import { manualTimers } from '../support/manual-timers.js';

const RATE = { perSecond: 10, burst: 5 };

function limits() {
  const clock = manualTimers();
  const changes: FloodChange[] = [];
  const made = createNotificationLimits({ onChange: (c) => changes.push(c), now: clock.now, setTimer: clock.setTimer });
  return { clock, changes, limits: made };
}

describe('createNotificationLimits', () => {
  it('drops and counts what is over the rate; the flood starts at the first drop and ends once quiet', () => {
    const { clock, changes, limits: l } = limits();
    const gate = l.gateFor('a', RATE);
    const sent = ['notifications/message', 'notifications/resources/updated', 'notifications/progress'];
    const admitted = Array.from({ length: 30 }, (_, i) => gate.admit(sent[i % 3] ?? '')).filter(Boolean).length;
    expect(admitted).toBe(5);
    expect(l.status('a')).toEqual({ flooding: true, dropped: 25 });
    expect(changes).toEqual([expect.objectContaining({ server: 'a', flooding: true, dropped: 1, perSecond: 10 })]);
    // Quiet until the bucket is full again (5 / 10 per second, at least 1 s): then it is over.
    clock.advance(999);
    expect(l.status('a').flooding).toBe(true);
    clock.advance(1);
    expect(l.status('a')).toEqual({ flooding: false, dropped: 25 });
    expect(changes[1]).toEqual({
      server: 'a',
      flooding: false,
      dropped: 25,
      byKind: { message: 8, resources_updated: 8, progress: 9, list_changed: 0, other: 0 },
      droppedTotal: 25,
      perSecond: 10,
      burst: 5,
      durationMs: 0,
    });
  });

  it('a flood goes on while drops keep coming, and counts add up across floods and connections', () => {
    const { clock, changes, limits: l } = limits();
    let gate = l.gateFor('a', RATE);
    for (let second = 0; second < 5; second++) {
      for (let i = 0; i < 20; i++) gate.admit('notifications/tools/list_changed');
      clock.advance(900);
    }
    expect(changes.map((c) => c.flooding)).toEqual([true]);
    clock.advance(1_000);
    expect(changes.at(-1)).toMatchObject({ flooding: false, byKind: { list_changed: changes.at(-1)?.dropped } });
    // A reconnect gets a full bucket; the server's counts carry on.
    gate = l.gateFor('a', RATE);
    for (let i = 0; i < 6; i++) gate.admit('x/y');
    expect(changes.at(-1)).toMatchObject({ flooding: true, dropped: 1 });
    expect(l.status('a').dropped).toBe((changes[1]?.dropped ?? 0) + 1);
  });

  it('keeps servers apart, and forgets a removed one (its old gate reports nothing more)', () => {
    const { clock, changes, limits: l } = limits();
    const a = l.gateFor('a', RATE);
    const b = l.gateFor('b', RATE);
    for (let i = 0; i < 6; i++) a.admit('notifications/message');
    expect(b.admit('notifications/message')).toBe(true);
    expect(l.status('b')).toEqual({ flooding: false, dropped: 0 });
    l.forget('a');
    expect(l.status('a')).toEqual({ flooding: false, dropped: 0 });
    for (let i = 0; i < 6; i++) a.admit('notifications/message');
    clock.advance(10_000);
    expect(changes.map((c) => [c.server, c.flooding])).toEqual([['a', true]]);
    expect(clock.pending()).toBe(0);
  });
});
