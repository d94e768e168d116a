import { describe, expect, it } from 'vitest';
import { fakeUpstream, flush, makeSpec, startConnection } from './fixtures.js';

describe('connection machine health checks', () => {
  const spec = makeSpec({ healthIntervalMs: 1_000, pingTimeoutMs: 300 });

  it('pings every interval and records latency without a state event', async () => {
    const t = startConnection({ spec });
    await flush();
    t.take();
    t.clock.increment(1_000);
    expect(t.state()).toEqual({ connected: 'pinging' });
    await flush();
    expect(t.state()).toEqual({ connected: 'idle' });
    expect(t.context()).toMatchObject({ lastPingAt: 5_000, pingLatencyMs: 7 });
    expect(t.take()).toEqual([{ type: 'health', server: 's1', latencyMs: 7, at: 5_000 }]);
    expect(t.fake.pings[0]?.timeoutMs).toBe(300);
  });

  it('goes to reconnecting when a ping fails', async () => {
    const fake = fakeUpstream();
    fake.scriptPing('s1', 'fail');
    const t = startConnection({ fake, spec });
    await flush();
    t.take();
    t.clock.increment(1_000);
    await flush();
    expect(t.state()).toBe('reconnecting');
    const error = { message: 'health ping failed: ping refused', code: 'ECONNREFUSED' };
    expect(t.take()).toEqual([{ type: 'reconnecting', server: 's1', attempt: 1, delayMs: 450, error }]);
    expect(fake.watcher('s1')?.cleanedUp).toBe(true);
  });

  it('goes to reconnecting when a ping times out', async () => {
    const fake = fakeUpstream();
    fake.scriptPing('s1', 'hang');
    const t = startConnection({ fake, spec });
    await flush();
    t.take();
    t.clock.increment(1_000);
    t.clock.increment(299);
    expect(t.state()).toEqual({ connected: 'pinging' });
    t.clock.increment(1);
    expect(t.state()).toBe('reconnecting');
    const error = { message: 'health ping timed out after 300 ms', code: 'timeout' };
    expect(t.take()).toEqual([{ type: 'reconnecting', server: 's1', attempt: 1, delayMs: 450, error }]);
  });
});
