/**
 * The in-flight caps on a real upstream (issue 17 item 9, ADR 022): with two places on the
 * server, one token's many calls wait, another token's call goes first, a token over its
 * queue bound is refused at once with the caps named, a cancelled waiting call leaves the
 * queue unsent, and the server stays connected throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { holdingServer } from '../../support/holding-server.js';
import { refusal } from '../../support/refusal.js';
import { waitFor } from '../../support/wait-for.js';

describe('in-flight caps', () => {
  let gw: GatewayHarness;
  let a: Agent;
  let b: Agent;
  const arrived: string[] = [];
  const held: (() => void)[] = [];
  const release = () => held.shift()?.();
  const call = (agent: Agent, who: string, signal?: AbortSignal) =>
    agent.client.callTool({ name: 'h__hold', arguments: { who } }, undefined, signal ? { signal } : {});
  const stats = () => gw.gateway.admission().find((s) => s.server === 'h');

  beforeAll(async () => {
    gw = await startGateway({
      servers: { h: { make: () => holdingServer(arrived, held), entry: { maxConcurrentRequests: 2 } } },
      config: { limits: { inFlight: { perToken: 64, queuePerToken: 8 } } },
    });
    a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    b = await gw.agent({ kind: 'all' }, {}, 'token-b');
  });
  afterAll(() => gw?.stop());

  it("serves another token's call before one token's queued calls, refuses over the queue bound, and stays connected", async () => {
    const fromA = Array.from({ length: 10 }, (_, i) => call(a, `a${i + 1}`));
    // Two places: two of A's calls reach the server, eight wait.
    await waitFor(() => arrived.length === 2 && stats()?.waiting === 8, { what: "A's calls placed" });
    const over = await refusal(call(a, 'a11'));
    expect(over.code).toBe(-32000);
    expect(over.message).toContain(
      'too many requests: server "h" is at its cap of 2 in flight (mcpServers.h.maxConcurrentRequests) and this token already has 8 waiting (limits.inFlight.queuePerToken)',
    );
    expect(over.data).toMatchObject({ scope: 'in_flight', setting: 'limits.inFlight.queuePerToken', limit: 8 });
    const fromB = call(b, 'b1');
    await waitFor(() => stats()?.waiting === 9, { what: "B's call waiting" });
    // The first place freed goes to B, though eight of A's were waiting before it.
    release();
    await waitFor(() => arrived.length === 3, { what: 'a third call placed' });
    expect(arrived).toEqual(['a1', 'a2', 'b1']);
    while (held.length > 0 || arrived.length < 11) {
      release();
      await waitFor(() => held.length > 0 || arrived.length === 11, { what: 'the next call placed' });
    }
    expect((await fromB).content).toEqual([{ type: 'text', text: 'done b1' }]);
    expect((await Promise.all(fromA)).map((r) => r.isError ?? false)).toEqual(Array(10).fill(false));
    expect(arrived.slice(3)).toEqual(['a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10']);
    expect(gw.hub.getServer('h').state).toBe('connected');
    expect(gw.events.filter((e) => e.type === 'reconnecting')).toEqual([]);
    expect(stats()).toMatchObject({ inFlight: 0, waiting: 0, waited: 9, refused: 1 });
  });

  it('takes a cancelled waiting call out of the queue: never sent, its place in the bound freed', async () => {
    const before = arrived.length;
    const running = [call(a, 'r1'), call(a, 'r2')];
    await waitFor(() => held.length === 2, { what: 'both places taken' });
    const cancel = new AbortController();
    const cancelled = call(a, 'gone', cancel.signal);
    const waiting = Array.from({ length: 7 }, (_, i) => call(a, `w${i + 1}`));
    await waitFor(() => stats()?.waiting === 8, { what: 'the queue full' });
    cancel.abort();
    await expect(cancelled).rejects.toThrow();
    await waitFor(() => stats()?.waiting === 7, { what: 'the cancelled call gone from the queue' });
    // Its place in the bound is free again: one more waits instead of being refused.
    const another = call(a, 'w8');
    await waitFor(() => stats()?.waiting === 8, { what: 'another call waiting' });
    while (arrived.length < before + 10) {
      release();
      await waitFor(() => held.length > 0 || arrived.length === before + 10, { what: 'the next call placed' });
    }
    while (held.length > 0) release();
    await Promise.all([...running, ...waiting, another]);
    expect(arrived.slice(before)).not.toContain('gone');
    expect(arrived.slice(before)).toHaveLength(10);
    expect(gw.hub.getServer('h').state).toBe('connected');
  });

  it('counts one token over every upstream: at perToken it waits even where the server has room', async () => {
    gw.reload({ config: { limits: { inFlight: { perToken: 1, queuePerToken: 1 } } } });
    const first = call(b, 'solo1');
    await waitFor(() => held.length === 1, { what: 'the first call placed' });
    const second = call(b, 'solo2');
    await waitFor(() => stats()?.waiting === 1, { what: 'the second waiting on the token cap' });
    const over = await refusal(call(b, 'solo3'));
    expect(over.message).toContain(
      'too many requests: this token is at its cap of 1 in flight (limits.inFlight.perToken) and it already has 1 waiting (limits.inFlight.queuePerToken)',
    );
    release();
    await waitFor(() => held.length === 1, { what: 'the second call placed' });
    release();
    await Promise.all([first, second]);
    expect(over.code).toBe(-32000);
  });
});

describe('in-flight caps by default', () => {
  let gw: GatewayHarness;
  const arrived: string[] = [];
  const held: (() => void)[] = [];
  beforeAll(async () => {
    gw = await startGateway({ servers: { h: { make: () => holdingServer(arrived, held) } } });
  });
  afterAll(() => gw?.stop());

  it("caps an upstream at 32 in flight with no setting, and serves a second token before the first's backlog", async () => {
    const a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    const b = await gw.agent({ kind: 'all' }, {}, 'token-b');
    const call = (agent: Agent, who: string) => agent.client.callTool({ name: 'h__hold', arguments: { who } });
    const fromA = Array.from({ length: 40 }, (_, i) => call(a, `a${i + 1}`));
    await waitFor(() => arrived.length === 32, { what: 'the default 32 places taken' });
    const fromB = call(b, 'b1');
    await waitFor(() => gw.gateway.admission()[0]?.waiting === 9, { what: "B's call waiting behind A's 8" });
    held.shift()?.();
    await waitFor(() => arrived.length === 33, { what: 'the freed place taken' });
    expect(arrived[32]).toBe('b1');
    while (arrived.length < 41 || held.length > 0) {
      held.shift()?.();
      await waitFor(() => held.length > 0 || arrived.length === 41, { what: 'the next call placed' });
    }
    await Promise.all([...fromA, fromB]);
    expect(gw.hub.getServer('h').state).toBe('connected');
  });
});

describe('in-flight caps: waits that end', () => {
  let gw: GatewayHarness;
  const arrived: string[] = [];
  const held: (() => void)[] = [];
  const waiting = () => gw.gateway.admission().find((s) => s.server === 't')?.waiting;
  beforeAll(async () => {
    const make = () => {
      const server = holdingServer(arrived, held);
      server.registerResource('note', 'note://one', { description: 'a note' }, async (uri) => ({
        contents: [{ uri: uri.href, text: 'note' }],
      }));
      server.registerPrompt('greet', { description: 'a greeting' }, async () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
      }));
      return server;
    };
    gw = await startGateway({
      servers: {
        t: { make, entry: { maxConcurrentRequests: 1 } },
        u: { make: () => holdingServer(arrived, held), entry: { requestTimeoutMs: 400 } },
      },
      config: { limits: { inFlight: { perToken: 1 } } },
    });
  });
  afterAll(() => gw?.stop());

  it('answers a call that waited its whole requestTimeoutMs with the cap named, never sent', async () => {
    const a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    // The token's one place, held on another server.
    const first = a.client.callTool({ name: 't__hold', arguments: { who: 'first' } });
    await waitFor(() => held.length === 1, { what: "the token's place taken" });
    const late = await a.client.callTool({ name: 'u__hold', arguments: { who: 'late' } });
    expect(late).toMatchObject({ isError: true });
    expect(late.content).toEqual([
      {
        type: 'text',
        text: 'no place for the request to server "u" within 400 ms (requestTimeoutMs): this token stayed at its cap of 1 in flight (limits.inFlight.perToken); it was not sent',
      },
    ]);
    held.shift()?.();
    await first;
    expect(arrived).toEqual(['first']);
    expect(gw.gateway.admission().find((s) => s.server === 'u')).toMatchObject({ timedOut: 1, waiting: 0 });
  });

  it("counts every request kind, and a session's end takes its waiting requests out", async () => {
    const a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    const b = await gw.agent({ kind: 'all' }, {}, 'token-b');
    const first = a.client.callTool({ name: 't__hold', arguments: { who: 'second' } });
    await waitFor(() => held.length === 1, { what: "t's one place taken" });
    const [resource] = (await b.client.listResources()).resources;
    const asked = [b.client.readResource({ uri: resource?.uri ?? '' }), b.client.getPrompt({ name: 't__greet' })];
    const settled = asked.map((p) => p.catch((error: unknown) => error));
    await waitFor(() => waiting() === 2, { what: "B's read and prompt waiting" });
    await b.client.close();
    await waitFor(() => waiting() === 0, { what: "the closed session's requests gone" });
    held.shift()?.();
    await first;
    await Promise.all(settled);
    expect(arrived).toEqual(['first', 'second']);
    expect(gw.hub.getServer('t').state).toBe('connected');
  });
});

describe('in-flight caps: a busy connection is alive', () => {
  let gw: GatewayHarness;
  const arrived: string[] = [];
  const held: (() => void)[] = [];
  const checks = () => gw.events.filter((e) => e.type === 'health' && e.server === 'l').length;
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        l: { make: () => holdingServer(arrived, held), entry: { livenessCheckAfterMs: 100, livenessTimeoutMs: 300 } },
      },
    });
  });
  afterAll(() => gw?.stop());

  it('checks a connection a silent call waits on only while it answers nothing else', async () => {
    const a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    const b = await gw.agent({ kind: 'all' }, {}, 'token-b');
    const silent = a.client.callTool({ name: 'l__hold', arguments: { who: 'silent' } });
    await waitFor(() => held.length === 1, { what: 'the silent call placed' });
    // Answers keep coming on the connection for several check intervals: no check.
    const busyUntil = performance.now() + 600;
    while (performance.now() < busyUntil) {
      await b.client.callTool({ name: 'l__echo', arguments: { text: 'x' } });
      // In memory, a call is all microtasks: let the check's timer run between them.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(checks()).toBe(0);
    // Nothing else answered: the silent call has its connection checked (a ping, answered).
    await waitFor(() => checks() > 0, { what: 'a liveness check' });
    held.shift()?.();
    expect((await silent).isError).toBeFalsy();
    expect(gw.hub.getServer('l').state).toBe('connected');
  });

  it('does not check while the service itself is too busy to read its pipes', async () => {
    const a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    const silent = a.client.callTool({ name: 'l__hold', arguments: { who: 'stuck' } });
    await waitFor(() => held.length === 1, { what: 'the silent call placed' });
    const before = checks();
    // The event loop saturated across several check intervals: the silence may be our own.
    const spinUntil = performance.now() + 350;
    while (performance.now() < spinUntil);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(checks()).toBe(before);
    await waitFor(() => checks() > before, { what: 'a check once the service is idle again' });
    held.shift()?.();
    await silent;
  });
});
