import { describe, expect, it } from 'vitest';
import { type AnyEventObject, createActor, createMachine } from 'xstate';
import { CONNECTED, COUNTS, type FakeUpstream, fakeUpstream, flush, makeSpec, startConnection } from './fixtures.js';

const connected = CONNECTED;

describe('connection machine commands', () => {
  type Fake = FakeUpstream;
  type Case = {
    value: unknown;
    before?: (fake: Fake) => void;
    after?: (t: ReturnType<typeof startConnection>) => void;
    sessions: number;
  };
  const cases: Record<string, Case> = {
    connecting: { value: 'connecting', before: (fake) => fake.scriptConnect('s1', 'hang'), sessions: 0 },
    connected: { value: { connected: 'idle' }, sessions: 1 },
    'connected.pinging': {
      value: { connected: 'pinging' },
      before: (fake) => fake.scriptPing('s1', 'hang'),
      after: (t) => t.clock.increment(60_000),
      sessions: 1,
    },
    reconnecting: { value: 'reconnecting', before: (fake) => fake.scriptConnect('s1', 'fail'), sessions: 0 },
    disabled: { value: 'disabled', after: (t) => t.actor.send({ type: 'server.disconnect' }), sessions: 1 },
  };

  it.each(Object.entries(cases))('is removed from %s, ending its session and reporting removed once', async (_, c) => {
    const fake = fakeUpstream();
    c.before?.(fake);
    const t = startConnection({ fake });
    await flush();
    c.after?.(t);
    expect(t.state()).toEqual(c.value);
    const pendingConnect = fake.signals.at(-1);
    t.take();
    t.actor.send({ type: 'server.remove' });
    expect(t.state()).toBe('removed');
    expect(t.actor.getSnapshot().status).toBe('done');
    expect(t.take()).toEqual([{ type: 'removed', server: 's1' }]);
    expect(fake.watchers.length).toBe(c.sessions);
    expect(fake.watchers.every((watcher) => watcher.cleanedUp)).toBe(true);
    if (c.value === 'connecting') expect(pendingConnect?.aborted).toBe(true);
    // Final: every timer was cancelled, nothing more is reported.
    t.clock.increment(120_000);
    await flush();
    expect(t.take()).toEqual([]);
  });

  it('aborts a pending connect when removed', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'hang');
    const t = startConnection({ fake });
    t.actor.send({ type: 'server.remove' });
    expect(fake.signals[0]?.aborted).toBe(true);
  });

  it('disconnects on request and ignores a second request', async () => {
    const t = startConnection();
    await flush();
    t.take();
    t.actor.send({ type: 'server.disconnect' });
    t.actor.send({ type: 'server.disconnect' });
    expect(t.state()).toBe('disabled');
    expect(t.take()).toEqual([{ type: 'disabled', server: 's1', reason: 'manual' }]);
    expect(t.fake.watcher('s1')?.cleanedUp).toBe(true);
    expect(t.context()).toMatchObject({ handle: null, connectedAt: null, disabledReason: 'manual' });
  });

  it('ignores an update with an equal spec and reconnects on a changed one', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail');
    const t = startConnection({ fake });
    await flush();
    t.actor.send({ type: 'server.update', spec: makeSpec() });
    expect(t.take()).toHaveLength(2);
    const changed = makeSpec({ connectTimeoutMs: 1_234 });
    t.actor.send({ type: 'server.update', spec: changed });
    await flush();
    expect(t.take()).toEqual([
      { type: 'connecting', server: 's1', attempt: 0 },
      { ...connected, attempt: 0 },
    ]);
    expect(t.context()).toMatchObject({ spec: changed, lastError: null });
    expect(fake.connects.at(-1)).toEqual({ serverId: 's1', spec: changed, attempt: 0 });
    t.actor.send({ type: 'server.update', spec: makeSpec({ connectTimeoutMs: 99 }) });
    expect(fake.watcher('s1')?.cleanedUp).toBe(true);
    expect(t.state()).toBe('connecting');
  });

  it('restarts a pending connect when the spec changes while connecting', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'hang');
    const t = startConnection({ fake });
    t.actor.send({ type: 'server.update', spec: makeSpec({ pingTimeoutMs: 9 }) });
    expect(fake.signals[0]?.aborted).toBe(true);
    await flush();
    expect(t.take().map((e) => e.type)).toEqual(['connecting', 'connecting', 'connected']);
  });

  it('follows enabled in config updates', async () => {
    const t = startConnection({ spec: makeSpec({ enabled: false }) });
    expect(t.state()).toBe('disabled');
    t.actor.send({ type: 'server.update', spec: makeSpec({ enabled: false, pingTimeoutMs: 1 }) });
    expect(t.context().spec.pingTimeoutMs).toBe(1);
    t.actor.send({ type: 'server.update', spec: makeSpec() });
    await flush();
    t.actor.send({ type: 'server.update', spec: makeSpec({ enabled: false }) });
    expect(t.state()).toBe('disabled');
    expect(t.take()).toEqual([
      { type: 'disabled', server: 's1', reason: 'config' },
      { type: 'connecting', server: 's1', attempt: 0 },
      { ...connected, attempt: 0 },
      { type: 'disabled', server: 's1', reason: 'config' },
    ]);
  });

  it('turns a manual disable into a config one when the config disables the server', async () => {
    const t = startConnection();
    await flush();
    t.actor.send({ type: 'server.disconnect' });
    t.take();
    t.actor.send({ type: 'server.update', spec: makeSpec({ enabled: false }) });
    expect(t.take()).toEqual([{ type: 'disabled', server: 's1', reason: 'config' }]);
  });

  it('reports catalog changes and keeps the counts', async () => {
    const t = startConnection();
    await flush();
    t.take();
    const counts = { ...COUNTS, toolCount: 4 };
    const changes = [{ kind: 'tools' as const, added: ['new_tool'], removed: [], changed: [] }];
    t.fake.watcher('s1')?.sendBack({ type: 'upstream.catalog', counts, changes });
    expect(t.state()).toEqual({ connected: 'idle' });
    expect(t.context().counts).toEqual(counts);
    expect(t.take()).toEqual([{ type: 'catalog_changed', server: 's1', changes, ...counts }]);
  });

  it('goes to reconnecting when connectUpstream or watchUpstream throw synchronously', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'throw');
    fake.throwingWatch.add('s1');
    const t = startConnection({ fake });
    await flush();
    expect(t.context().lastError).toEqual({ message: 'connect threw' });
    t.clock.increment(450);
    await flush();
    expect(t.context().lastError).toEqual({ message: 'watch threw' });
    expect(t.state()).toBe('reconnecting');
    expect(t.actor.getSnapshot().status).toBe('active');
    expect(t.take().map((e) => e.type)).toEqual([
      'connecting',
      'reconnecting',
      'connecting',
      'connected',
      'reconnecting',
    ]);
  });

  it('starts waiting a backoff when resumed with initialAttempt and initialError', () => {
    const t = startConnection({ initialAttempt: 3, initialError: { message: 'crashed' } });
    expect(t.state()).toBe('reconnecting');
    expect(t.take()).toEqual([
      { type: 'reconnecting', server: 's1', attempt: 3, delayMs: 1800, error: { message: 'crashed' } },
    ]);
    t.clock.increment(1_799);
    expect(t.fake.connects).toEqual([]);
    t.clock.increment(1);
    expect(t.fake.connects).toEqual([{ serverId: 's1', spec: makeSpec(), attempt: 3 }]);
  });

  it('sends every event to its parent as connection.event', async () => {
    const reports: AnyEventObject[] = [];
    const parent = createActor(createMachine({ on: { '*': { actions: ({ event }) => reports.push(event) } } }));
    parent.start();
    const t = startConnection({ parentRef: parent });
    await flush();
    t.actor.send({ type: 'server.remove' });
    expect(reports).toEqual([
      { type: 'connection.event', event: { type: 'connecting', server: 's1', attempt: 0 } },
      { type: 'connection.event', event: { ...connected, attempt: 0 } },
      { type: 'connection.event', event: { type: 'removed', server: 's1' } },
    ]);
  });

  it('uses no jitter without a random source', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail');
    const t = startConnection({ fake, random: undefined });
    await flush();
    expect(t.context().nextDelayMs).toBe(500);
  });
});
