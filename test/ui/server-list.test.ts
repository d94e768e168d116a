/**
 * The servers page's state from the event stream alone (SPEC A2, A3): the snapshot, then each
 * event applied as the connection machine applies it.
 */
import { describe, expect, it } from 'vitest';
import type { LiveEvent, ServerStatus } from '../../src/ui/api-types.js';
import { applyEvent, attemptShown, countHeld, fromSnapshot, noticeShown, pingShown } from '../../src/ui/server-list.js';

const status = (name: string, patch: Partial<ServerStatus> = {}): ServerStatus => ({
  name,
  transport: 'stdio',
  state: 'connected',
  attempt: 0,
  lastError: null,
  nextRetryAt: null,
  toolCount: 2,
  resourceCount: 1,
  promptCount: 0,
  pid: 100,
  resourceTemplateCount: 0,
  authorizationServer: null,
  enabled: true,
  connectedAt: '2026-01-01T00:00:00.000Z',
  lastPingAt: null,
  pingLatencyMs: null,
  nextDelayMs: null,
  disabledReason: null,
  flooding: false,
  droppedNotifications: 0,
  ...patch,
});
const at = '2026-01-01T00:00:10.000Z';
const event = (e: Record<string, unknown>) => ({ at, ...e }) as unknown as LiveEvent;
const counts = { toolCount: 3, resourceCount: 0, resourceTemplateCount: 1, promptCount: 2 };

describe('the live server list', () => {
  it('starts from the snapshot, sorted by name', () => {
    expect(fromSnapshot([status('b'), status('a')]).map((s) => [s.name, s.eventAt])).toEqual([
      ['a', null],
      ['b', null],
    ]);
  });

  it('follows a crash: reconnecting with attempt, delay, retry time and error; then connected again', () => {
    let list = fromSnapshot([status('mem')]);
    list = applyEvent(
      list,
      event({ type: 'reconnecting', server: 'mem', attempt: 1, delayMs: 500, error: { message: 'closed' } }),
    );
    expect(list[0]).toMatchObject({
      state: 'reconnecting',
      attempt: 1,
      nextDelayMs: 500,
      nextRetryAt: '2026-01-01T00:00:10.500Z',
      lastError: 'closed',
      pid: null,
      eventAt: at,
    });
    list = applyEvent(list, event({ type: 'connecting', server: 'mem', attempt: 1 }));
    expect(list[0]).toMatchObject({ state: 'connecting', nextRetryAt: null, lastError: 'closed' });
    list = applyEvent(
      list,
      event({ type: 'connected', server: 'mem', attempt: 1, transport: 'stdio', pid: 7, ...counts }),
    );
    expect(list[0]).toMatchObject({ state: 'connected', pid: 7, lastError: null, connectedAt: at, ...counts });
  });

  it('counts follow catalog_changed, latency follows health', () => {
    let list = fromSnapshot([status('mem')]);
    list = applyEvent(list, event({ type: 'catalog_changed', server: 'mem', changes: [], ...counts }));
    list = applyEvent(list, event({ type: 'health', server: 'mem', latencyMs: 3 }));
    expect(list[0]).toMatchObject({ ...counts, pingLatencyMs: 3, lastPingAt: at, state: 'connected' });
  });

  it('adds a server it hears of first, drops a removed one, and marks disabled ones with their reason', () => {
    let list = fromSnapshot([status('b')]);
    list = applyEvent(list, event({ type: 'connecting', server: 'a', attempt: 0 }));
    expect(list.map((s) => [s.name, s.state])).toEqual([
      ['a', 'connecting'],
      ['b', 'connected'],
    ]);
    list = applyEvent(list, event({ type: 'disabled', server: 'b', reason: 'manual' }));
    expect(list[1]).toMatchObject({ state: 'disabled', disabledReason: 'manual', enabled: true, pid: null });
    list = applyEvent(list, event({ type: 'removed', server: 'a' }));
    expect(list.map((s) => s.name)).toEqual(['b']);
  });

  it('leaves the list as it is for events that are not about a row', () => {
    const list = fromSnapshot([status('a')]);
    expect(applyEvent(list, event({ type: 'tool_approved', server: 'a', tool: 't' }))).toBe(list);
    expect(applyEvent(list, event({ type: 'config_applied', server: null, added: [], removed: [], changed: [] }))).toBe(
      list,
    );
    expect(applyEvent(list, event({ type: 'removed', server: 'zz' }))).toBe(list);
  });

  it('shows the attempt only while the server is trying, not once it connected again', () => {
    let list = fromSnapshot([status('mem')]);
    list = applyEvent(list, event({ type: 'reconnecting', server: 'mem', attempt: 2, delayMs: 500 }));
    expect(attemptShown(list[0] as ServerStatus)).toBe(2);
    list = applyEvent(list, event({ type: 'connecting', server: 'mem', attempt: 2 }));
    expect(attemptShown(list[0] as ServerStatus)).toBe(2);
    list = applyEvent(
      list,
      event({ type: 'connected', server: 'mem', attempt: 2, transport: 'stdio', pid: 7, ...counts }),
    );
    expect(list[0]?.attempt).toBe(2);
    expect(attemptShown(list[0] as ServerStatus)).toBeNull();
    expect(attemptShown(status('a', { state: 'connecting', attempt: 0 }))).toBeNull();
  });

  it('shows the ping only while connected: a disabled server has no current latency', () => {
    let list = fromSnapshot([status('mem')]);
    list = applyEvent(list, event({ type: 'health', server: 'mem', latencyMs: 3.4 }));
    expect(pingShown(list[0] as ServerStatus)).toBe(3);
    list = applyEvent(list, event({ type: 'disabled', server: 'mem', reason: 'manual' }));
    expect(pingShown(list[0] as ServerStatus)).toBeNull();
    expect(pingShown(status('b', { state: 'reconnecting', pingLatencyMs: 9 }))).toBeNull();
  });

  it('counts held tools per server', () => {
    const held = (server: string, tool: string) => ({ server, tool }) as never;
    expect([...countHeld({ policy: 'strict', quarantines: [held('a', 'x'), held('b', 'y'), held('a', 'z')] })]).toEqual(
      [
        ['a', 2],
        ['b', 1],
      ],
    );
    expect(countHeld({ policy: 'warn', quarantines: [] }).size).toBe(0);
  });

  it('keeps a notice only while its server stays in the states it was set for', () => {
    const notice = { server: 'a', text: 'Disconnecting a…', while: ['connected' as const] };
    expect(noticeShown(notice, [status('a')])).toBe('Disconnecting a…');
    expect(noticeShown(notice, [status('a', { state: 'disabled' })])).toBeNull();
    expect(noticeShown(notice, [])).toBeNull();
    const added = { server: 'n', text: 'Added n…', while: [null, 'connecting' as const] };
    expect(noticeShown(added, [])).toBe('Added n…');
    expect(noticeShown(added, [status('n', { state: 'connecting' })])).toBe('Added n…');
    expect(noticeShown(added, [status('n')])).toBeNull();
    expect(noticeShown(null, [status('a')])).toBeNull();
  });
});
