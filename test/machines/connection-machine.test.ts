import { describe, expect, it } from 'vitest';
import { CONNECTED, COUNTS, fakeUpstream, flush, makeSpec, startConnection } from './fixtures.js';

const connected = CONNECTED;
const refused = { message: 'connect refused', code: 'ECONNREFUSED' };

describe('connection machine', () => {
  it('connects, then reports each state entered exactly once', async () => {
    const t = startConnection();
    expect(t.state()).toBe('connecting');
    await flush();
    expect(t.state()).toEqual({ connected: 'idle' });
    expect(t.take()).toEqual([
      { type: 'connecting', server: 's1', attempt: 0 },
      { ...connected, attempt: 0 },
    ]);
    expect(t.context()).toMatchObject({ connectedAt: 1_000, counts: COUNTS, lastError: null, attempt: 0 });
    expect(t.fake.connects).toEqual([{ serverId: 's1', spec: makeSpec(), attempt: 0 }]);
  });

  it('reconnects with a growing, jittered delay up to the cap', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', ...Array<'fail'>(8).fill('fail'));
    const t = startConnection({ fake });
    const delays: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      await flush();
      expect(t.state()).toBe('reconnecting');
      const delay = t.context().nextDelayMs as number;
      delays.push(delay);
      t.clock.increment(delay - 1);
      expect(t.state()).toBe('reconnecting');
      t.clock.increment(1);
      expect(t.state()).toBe('connecting');
    }
    expect(delays).toEqual([450, 900, 1800, 3600, 7200, 14400, 27000, 27000]);
    const reported = t.take().flatMap((e) => (e.type === 'reconnecting' ? [[e.attempt, e.delayMs]] : []));
    expect(reported).toEqual(delays.map((delay, i) => [i + 1, delay]));
    await flush();
    expect(t.state()).toEqual({ connected: 'idle' });
  });

  it('uses the random source for jitter on every attempt', async () => {
    const draws = [0, 1, 0.25];
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail', 'fail', 'fail');
    const t = startConnection({ fake, random: () => draws.shift() ?? 0 });
    for (const delay of [500, 800, 1900]) {
      await flush();
      expect(t.context().nextDelayMs).toBe(delay);
      t.clock.increment(delay);
    }
    await flush();
    expect(t.take()).toEqual([
      { type: 'connecting', server: 's1', attempt: 0 },
      { type: 'reconnecting', server: 's1', attempt: 1, delayMs: 500, error: refused },
      { type: 'connecting', server: 's1', attempt: 1 },
      { type: 'reconnecting', server: 's1', attempt: 2, delayMs: 800, error: refused },
      { type: 'connecting', server: 's1', attempt: 2 },
      { type: 'reconnecting', server: 's1', attempt: 3, delayMs: 1900, error: refused },
      { type: 'connecting', server: 's1', attempt: 3 },
      { ...connected, attempt: 3 },
    ]);
  });

  it('resets the attempt counter after a stable connection', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail', 'fail');
    const t = startConnection({ fake });
    await flush();
    t.clock.increment(450);
    await flush();
    t.clock.increment(900);
    await flush();
    expect(t.context().attempt).toBe(2);
    t.clock.increment(10_000);
    expect(t.context().attempt).toBe(0);
    t.take();
    fake.watcher('s1')?.sendBack({ type: 'upstream.closed', error: null });
    expect(t.take()).toEqual([
      {
        type: 'reconnecting',
        server: 's1',
        attempt: 1,
        delayMs: 450,
        error: { message: 'upstream closed the connection' },
      },
    ]);
  });

  it('keeps growing the attempt counter when connections do not last', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail', 'fail');
    const t = startConnection({ fake });
    await flush();
    t.clock.increment(450);
    await flush();
    t.clock.increment(900);
    await flush();
    t.clock.increment(9_999);
    t.take();
    fake.watcher('s1')?.sendBack({ type: 'upstream.closed', error: { message: 'EOF', code: 'EPIPE' } });
    expect(t.take()).toEqual([
      { type: 'reconnecting', server: 's1', attempt: 3, delayMs: 1800, error: { message: 'EOF', code: 'EPIPE' } },
    ]);
    expect(fake.watcher('s1')?.cleanedUp).toBe(true);
  });

  it('times out a connect that never settles (5 s past its own deadline) and aborts it', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'hang');
    const t = startConnection({ fake });
    t.clock.increment(24_999);
    await flush();
    expect(t.state()).toBe('connecting');
    t.clock.increment(1);
    expect(t.state()).toBe('reconnecting');
    expect(fake.signals[0]?.aborted).toBe(true);
    const timeout = { message: 'connect timed out after 20000 ms', code: 'timeout' };
    expect(t.context().lastError).toEqual(timeout);
    expect(t.take()).toEqual([
      { type: 'connecting', server: 's1', attempt: 0 },
      { type: 'reconnecting', server: 's1', attempt: 1, delayMs: 450, error: timeout },
    ]);
  });

  it('disables itself once maxAttempts are exhausted, without a last reconnecting event', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail', 'fail', 'fail');
    const t = startConnection({ fake, spec: makeSpec({ backoff: { maxAttempts: 2 } }) });
    await flush();
    t.clock.increment(450);
    await flush();
    t.clock.increment(900);
    await flush();
    expect(t.state()).toBe('disabled');
    expect(t.context()).toMatchObject({ disabledReason: 'exhausted', attempt: 3, nextDelayMs: null });
    expect(t.take().map((e) => e.type)).toEqual([
      'connecting',
      'reconnecting',
      'connecting',
      'reconnecting',
      'connecting',
      'disabled',
    ]);
    t.clock.increment(60_000);
    expect(fake.connects).toHaveLength(3);
  });

  it('reconnects at once on server.connect while waiting, and from disabled with attempt 0', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail', 'fail');
    const t = startConnection({ fake, spec: makeSpec({ backoff: { maxAttempts: 1 } }) });
    await flush();
    t.actor.send({ type: 'server.connect' });
    expect(t.state()).toBe('connecting');
    await flush();
    expect(t.state()).toBe('disabled');
    t.actor.send({ type: 'server.connect' });
    await flush();
    expect(t.take().map((e) => [e.type, 'attempt' in e ? e.attempt : null])).toEqual([
      ['connecting', 0],
      ['reconnecting', 1],
      ['connecting', 1],
      ['disabled', null],
      ['connecting', 0],
      ['connected', 0],
    ]);
  });
});
