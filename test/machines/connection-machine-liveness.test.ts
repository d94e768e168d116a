/**
 * The liveness check (SPEC X8): a call that met silence sends `upstream.check` into the
 * connection actor, which pings at once with the short `livenessTimeoutMs`; a connection
 * that fails it goes to `reconnecting` at once, one that answers goes back to waiting.
 */
import { describe, expect, it } from 'vitest';
import { fakeUpstream, flush, makeSpec, startConnection } from './fixtures.js';

describe('connection machine liveness checks', () => {
  const spec = makeSpec({ healthIntervalMs: 30_000, pingTimeoutMs: 10_000, livenessTimeoutMs: 2_000 });

  it('checks at once on upstream.check, long before the next health ping, and goes back to idle when answered', async () => {
    const t = startConnection({ spec });
    await flush();
    t.take();
    t.fake.watcher('s1')?.sendBack({ type: 'upstream.check' });
    expect(t.state()).toEqual({ connected: 'checking' });
    expect(t.fake.pings[0]?.timeoutMs).toBe(2_000);
    await flush();
    expect(t.state()).toEqual({ connected: 'idle' });
    expect(t.take()).toEqual([{ type: 'health', server: 's1', latencyMs: 7, at: 5_000 }]);
  });

  it('goes to reconnecting when the check is not answered within livenessTimeoutMs', async () => {
    const fake = fakeUpstream();
    fake.scriptPing('s1', 'hang');
    const t = startConnection({ fake, spec });
    await flush();
    t.take();
    t.clock.increment(5_000);
    t.fake.watcher('s1')?.sendBack({ type: 'upstream.check' });
    t.clock.increment(1_999);
    expect(t.state()).toEqual({ connected: 'checking' });
    t.clock.increment(1);
    expect(t.state()).toBe('reconnecting');
    const error = { message: 'liveness check timed out after 2000 ms', code: 'timeout' };
    expect(t.take()).toEqual([{ type: 'reconnecting', server: 's1', attempt: 1, delayMs: 450, error }]);
    expect(fake.watcher('s1')?.cleanedUp).toBe(true);
  });

  it('replaces a slow health ping in flight, and ignores further checks while one runs', async () => {
    const fake = fakeUpstream();
    fake.scriptPing('s1', 'hang', 'fail');
    const t = startConnection({ fake, spec });
    await flush();
    t.take();
    t.clock.increment(30_000);
    expect(t.state()).toEqual({ connected: 'pinging' });
    fake.watcher('s1')?.sendBack({ type: 'upstream.check' });
    fake.watcher('s1')?.sendBack({ type: 'upstream.check' });
    expect(t.state()).toEqual({ connected: 'checking' });
    expect(fake.pings.map((p) => p.timeoutMs)).toEqual([10_000, 2_000]);
    await flush();
    expect(t.state()).toBe('reconnecting');
    expect(t.take()[0]).toMatchObject({ error: { message: 'liveness check failed: ping refused' } });
  });
});
