import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, SimulatedClock } from 'xstate';
import {
  childId,
  connectionMachine,
  type ServerEvent,
  type ServerSpec,
  type SupervisorInput,
  serverOfChild,
  supervisorMachine,
} from '../../machines/index.js';
import { fakeUpstream, flush, makeSpec } from './fixtures.js';

type Fake = ReturnType<typeof fakeUpstream>;

/** Start a supervisor with fake upstreams on a simulated clock, collecting what it emits. */
function start(options: { fake?: Fake; input?: SupervisorInput; connection?: typeof connectionMachine } = {}) {
  const fake = options.fake ?? fakeUpstream();
  const connection = (options.connection ?? connectionMachine).provide({ actors: fake.actors });
  const clock = new SimulatedClock();
  const events: ServerEvent[] = [];
  const errors: unknown[] = [];
  const actor = createActor(supervisorMachine.provide({ actors: { connection } }), {
    input: { random: () => 0.5, ...options.input },
    clock,
  });
  actor.on('*', (event) => events.push(event));
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  const apply = (servers: Record<string, ServerSpec>) => actor.send({ type: 'config.apply', servers });
  const children = () => Object.keys(actor.getSnapshot().children).sort();
  const child = (name: string) => actor.getSnapshot().children[childId(name)] as AnyActorRef | undefined;
  const stateOf = (name: string) => child(name)?.getSnapshot().value;
  /** Events emitted since the last call, as `type:server`. */
  const take = () => events.splice(0, events.length).map((e) => `${e.type}:${e.server}`);
  return { actor, clock, fake, errors, events, apply, children, child, stateOf, take };
}

describe('childId / serverOfChild', () => {
  it('round-trips names and rejects other ids', () => {
    expect(childId('fs')).toBe('conn:fs');
    expect(serverOfChild(childId('a:b'))).toBe('a:b');
    expect(serverOfChild('watch')).toBeNull();
  });
});

describe('supervisor machine', () => {
  it('spawns one connection per server and re-emits their events', async () => {
    const t = start();
    t.apply({ a: makeSpec(), b: makeSpec({ enabled: false }) });
    await flush();
    expect(t.children()).toEqual(['conn:a', 'conn:b']);
    expect(t.stateOf('a')).toEqual({ connected: 'idle' });
    expect(t.stateOf('b')).toBe('disabled');
    expect(t.take()).toEqual(['connecting:a', 'disabled:b', 'connected:a']);
    expect(t.actor.getSnapshot().context.running).toEqual({ a: makeSpec(), b: makeSpec({ enabled: false }) });
  });

  it('does nothing when the same config is applied again', async () => {
    const t = start();
    t.apply({ a: makeSpec(), b: makeSpec() });
    await flush();
    const before = t.child('a');
    t.take();
    t.apply({ b: makeSpec(), a: makeSpec() });
    await flush();
    expect(t.take()).toEqual([]);
    expect(t.child('a')).toBe(before);
    expect(t.fake.connects).toHaveLength(2);
  });

  it('reconnects only the server whose config changed', async () => {
    const t = start();
    t.apply({ a: makeSpec(), b: makeSpec() });
    await flush();
    t.take();
    const changed = makeSpec({ connectTimeoutMs: 5 });
    t.apply({ a: makeSpec(), b: changed });
    await flush();
    expect(t.take()).toEqual(['connecting:b', 'connected:b']);
    expect(t.fake.watcher('a')?.cleanedUp).toBe(false);
    expect(t.fake.watchers.filter((w) => w.input.serverId === 'b').map((w) => w.cleanedUp)).toEqual([true, false]);
    expect(t.fake.connects.at(-1)).toEqual({ serverId: 'b', spec: changed, attempt: 0 });
  });

  it('disables and re-enables a server through config', async () => {
    const t = start();
    t.apply({ a: makeSpec() });
    await flush();
    t.take();
    t.apply({ a: makeSpec({ enabled: false }) });
    t.apply({ a: makeSpec() });
    await flush();
    expect(t.take()).toEqual(['disabled:a', 'connecting:a', 'connected:a']);
  });

  it('removes only that child, which is gone from the children once done', async () => {
    const t = start();
    t.apply({ a: makeSpec(), b: makeSpec() });
    await flush();
    t.take();
    t.apply({ b: makeSpec() });
    await flush();
    expect(t.take()).toEqual(['removed:a']);
    expect(t.children()).toEqual(['conn:b']);
    expect(t.fake.watcher('a')?.cleanedUp).toBe(true);
    expect(t.fake.watcher('b')?.cleanedUp).toBe(false);
    expect(t.actor.getSnapshot().context).toMatchObject({ running: { b: makeSpec() }, removing: {} });
  });

  it('removes and re-adds a server in quick succession', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('a', 'hang');
    const t = start({ fake });
    t.apply({ a: makeSpec() });
    t.apply({});
    t.apply({ a: makeSpec() });
    await flush();
    expect(t.take()).toEqual(['connecting:a', 'removed:a', 'connecting:a', 'connected:a']);
    expect(fake.signals[0]?.aborted).toBe(true);
    expect(t.children()).toEqual(['conn:a']);
    expect(t.stateOf('a')).toEqual({ connected: 'idle' });
  });

  it('forwards connect and disconnect to a running child and ignores unknown servers', async () => {
    const t = start();
    t.apply({ a: makeSpec() });
    await flush();
    t.take();
    t.actor.send({ type: 'server.disconnect', server: 'a' });
    t.actor.send({ type: 'server.disconnect', server: 'nope' });
    t.actor.send({ type: 'server.connect', server: 'nope' });
    expect(t.stateOf('a')).toBe('disabled');
    t.actor.send({ type: 'server.connect', server: 'a' });
    await flush();
    expect(t.take()).toEqual(['disabled:a', 'connecting:a', 'connected:a']);
    expect(t.actor.getSnapshot().status).toBe('active');
  });

  it('carries on when every upstream is down', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('a', 'throw', 'fail');
    fake.scriptConnect('b', 'fail');
    const t = start({ fake });
    t.apply({ a: makeSpec(), b: makeSpec() });
    await flush();
    expect(t.take()).toEqual(['connecting:a', 'reconnecting:a', 'connecting:b', 'reconnecting:b']);
    expect(t.actor.getSnapshot().status).toBe('active');
    t.clock.increment(450);
    await flush();
    expect(t.take()).toEqual(['connecting:a', 'connecting:b', 'reconnecting:a', 'connected:b']);
  });

  it('carries on when a watcher throws synchronously', async () => {
    const fake = fakeUpstream();
    fake.throwingWatch.add('a');
    const t = start({ fake });
    t.apply({ a: makeSpec(), b: makeSpec() });
    await flush();
    expect(t.actor.getSnapshot().status).toBe('active');
    expect(t.take()).toEqual(['connecting:a', 'connecting:b', 'connected:a', 'reconnecting:a', 'connected:b']);
    expect(t.child('a')?.getSnapshot().context.lastError).toEqual({ message: 'watch threw' });
    expect(t.stateOf('b')).toEqual({ connected: 'idle' });
  });
});

describe('supervisor machine with crashing children', () => {
  /** A connection whose reconnect delay throws `times` times (for the server named `bad`). */
  function crashing(times: number) {
    let left = times;
    return connectionMachine.provide({
      delays: {
        reconnectDelay: ({ context }) => {
          if (context.serverId === 'bad' && left > 0) {
            left -= 1;
            throw new Error('boom');
          }
          return context.nextDelayMs ?? 0;
        },
      },
    });
  }

  it('respawns a crashed child waiting a backoff, leaving the others alone', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('bad', 'fail');
    const t = start({ fake, connection: crashing(1) });
    t.apply({ bad: makeSpec(), good: makeSpec({ healthIntervalMs: 1_000 }) });
    await flush();
    expect(t.actor.getSnapshot().status).toBe('active');
    expect(t.errors).toEqual([]);
    const reconnecting = t.events.filter((e) => e.type === 'reconnecting');
    expect(reconnecting).toEqual([
      { type: 'reconnecting', server: 'bad', attempt: 1, delayMs: 450, error: { message: 'boom' } },
    ]);
    expect(t.take()).toEqual(['connecting:bad', 'connecting:good', 'reconnecting:bad', 'connected:good']);
    expect(t.stateOf('bad')).toBe('reconnecting');
    expect(t.stateOf('good')).toEqual({ connected: 'idle' });
    t.clock.increment(449);
    expect(t.fake.connects.filter((c) => c.serverId === 'bad')).toHaveLength(1);
    t.clock.increment(1);
    await flush();
    expect(t.take()).toEqual(['connecting:bad', 'connected:bad']);
    t.clock.increment(550);
    await flush();
    expect(t.take()).toEqual(['health:good']);
    expect(t.actor.getSnapshot().context.crashes).toEqual({});
  });

  it('respawns a child that keeps crashing as disabled instead of looping', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('bad', 'fail');
    const t = start({ fake, connection: crashing(Number.POSITIVE_INFINITY), input: { maxRestarts: 2 } });
    t.apply({ bad: makeSpec(), good: makeSpec() });
    await flush();
    expect(t.actor.getSnapshot().status).toBe('active');
    expect(t.take()).toEqual(['connecting:bad', 'connecting:good', 'disabled:bad', 'connected:good']);
    expect(t.stateOf('bad')).toBe('disabled');
    expect(t.child('bad')?.getSnapshot().context).toMatchObject({
      disabledReason: 'exhausted',
      lastError: { message: 'boom' },
    });
    expect(t.actor.getSnapshot().context.crashes).toEqual({ bad: 3 });
    t.apply({ good: makeSpec() });
    expect(t.take()).toEqual(['removed:bad']);
    expect(t.children()).toEqual(['conn:good']);
  });

  it('gives a server up when even its disabled child crashes', async () => {
    const fake = fakeUpstream();
    const broken = connectionMachine.provide({
      actions: {
        report: ({ context }) => {
          if (context.serverId === 'bad') throw new Error('report failed');
        },
      },
    });
    const t = start({ fake, connection: broken, input: { maxRestarts: 1 } });
    t.apply({ bad: makeSpec(), good: makeSpec() });
    await flush();
    expect(t.actor.getSnapshot().status).toBe('active');
    expect(t.take()).toEqual(['disabled:bad']);
    expect(t.children()).toEqual(['conn:good']);
    expect(t.stateOf('good')).toEqual({ connected: 'idle' });
    expect(t.actor.getSnapshot().context.running).toEqual({ good: makeSpec() });
  });
});
