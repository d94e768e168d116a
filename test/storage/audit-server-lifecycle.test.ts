/**
 * Issue 18 item 4: server lifecycle rows in the audit (connected, disconnected, reconnect
 * scheduled with the error, disabled), bounded: per server and kind, the first of a window
 * at once and the rest counted into one row when the window closes, so a flapping server
 * writes at most two rows per kind per window however fast it flaps.
 */
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../machines/index.js';
import type { AuditEntry } from '../../src/storage/audit-row.js';
import { createLifecycleAudit } from '../../src/storage/audit-server-lifecycle.js';
import { manualTimers } from '../support/manual-timers.js';

const WINDOW = 60_000;
const connected: ServerEvent = {
  type: 'connected',
  server: 'fs',
  transport: 'stdio',
  pid: 1,
  toolCount: 3,
  resourceCount: 0,
  resourceTemplateCount: 0,
  promptCount: 0,
} as ServerEvent;
const lost = (attempt: number): ServerEvent =>
  ({
    type: 'reconnecting',
    server: 'fs',
    attempt,
    delayMs: 1_000,
    error: { message: `connection closed (${attempt})` },
  }) as ServerEvent;

function start() {
  const rows: AuditEntry[] = [];
  const clock = manualTimers(1_000_000);
  const lifecycle = createLifecycleAudit({
    audit: { record: (entry) => void rows.push(entry) },
    windowMs: () => WINDOW,
    now: clock.now,
    setTimer: clock.setTimer,
  });
  return { rows, clock, lifecycle };
}

describe('the lifecycle audit', () => {
  it('writes connected, then disconnected and reconnect scheduled with the error, each at once', () => {
    const { rows, lifecycle } = start();
    lifecycle.observe({ type: 'connecting', server: 'fs', attempt: 0 });
    lifecycle.observe(connected);
    lifecycle.observe(lost(1));
    expect(rows.map((r) => r.eventType)).toEqual([
      'server_connected',
      'server_disconnected',
      'server_reconnect_scheduled',
    ]);
    expect(rows[0]).toMatchObject({ serverName: 'fs', success: true, input: { transport: 'stdio', tools: 3 } });
    expect(rows[1]).toMatchObject({ success: false, error: 'connection closed (1)', input: { reason: 'lost' } });
    expect(rows[2]).toMatchObject({
      success: false,
      error: 'connection closed (1)',
      input: { attempt: 1, delayMs: 1_000 },
    });
  });

  it('a failed first connect is a reconnect scheduled, not a disconnection; attempts running out disable it', () => {
    const { rows, lifecycle } = start();
    lifecycle.observe(lost(1));
    lifecycle.observe({ type: 'disabled', server: 'fs', reason: 'exhausted' });
    expect(rows.map((r) => r.eventType)).toEqual(['server_reconnect_scheduled', 'server_disabled']);
    expect(rows[1]).toMatchObject({ error: 'disabled (reconnect attempts exhausted)' });
  });

  it('bounds a flapping server: 500 drops in a window make two rows per kind, the second with the count and the last error', () => {
    const { rows, clock, lifecycle } = start();
    for (let i = 1; i <= 500; i++) {
      lifecycle.observe(connected);
      lifecycle.observe(lost(i));
      clock.advance(100);
    }
    // 50 s in: the first of each kind only.
    expect(rows).toHaveLength(3);
    clock.advance(WINDOW);
    expect(rows).toHaveLength(6);
    const counted = rows.slice(3);
    expect(counted.map((r) => [r.eventType, r.count])).toEqual(
      expect.arrayContaining([
        ['server_connected', 499],
        ['server_disconnected', 499],
        ['server_reconnect_scheduled', 499],
      ]),
    );
    expect(counted.find((r) => r.eventType === 'server_reconnect_scheduled')).toMatchObject({
      error: 'connection closed (500)',
      durationMs: WINDOW,
    });
    // The next window starts over: its first event is written at once.
    lifecycle.observe(connected);
    expect(rows).toHaveLength(7);
    expect(clock.pending()).toBe(1);
  });

  it('writes what it holds at close', () => {
    const { rows, lifecycle } = start();
    lifecycle.observe(lost(1));
    lifecycle.observe(lost(2));
    lifecycle.close();
    expect(rows.map((r) => [r.eventType, r.count ?? 1])).toEqual([
      ['server_reconnect_scheduled', 1],
      ['server_reconnect_scheduled', 1],
    ]);
  });
});
