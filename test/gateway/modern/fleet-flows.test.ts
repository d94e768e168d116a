/**
 * Input flows on any replica (issue 22 part 5, ADR 044): two replicas' flows over one
 * in-process link standing for the fleet bus (the same messages, delivered later, to every
 * replica): a retry on the other replica reaches the call, its progress comes back, the next
 * round's state names the call's replica again; a forged state is refused without a message
 * sent; a state whose replica is gone is refused as expired, a round whose replica dies
 * fails at once; the agent hanging up on the retry's replica cancels the call.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type FlowMessage, fleetFlows } from '../../../src/gateway/modern/fleet-flows.js';
import {
  createInputFlows,
  type InputAsker,
  type InputFlows,
  type Round,
} from '../../../src/gateway/modern/input-flows.js';

/** A fleet bus in one process: every message to every replica's handler, a turn later; a replica may be cut off. */
function createLink() {
  const handlers = new Map<string, (message: FlowMessage) => void>();
  const cut = new Set<string>();
  const sent: FlowMessage[] = [];
  const link = (replica: string, key: Buffer, ackMs = 5_000) => ({
    replica,
    key,
    ackMs,
    async publish(message: FlowMessage) {
      if (cut.has(replica)) return;
      sent.push(message);
      setImmediate(() => {
        for (const [who, handler] of handlers) if (!cut.has(who)) handler(structuredClone(message));
      });
    },
    async subscribe(handler: (message: FlowMessage) => void) {
      handlers.set(replica, handler);
    },
  });
  return { link, cut, sent };
}

const round = (signal = new AbortController().signal): Round & { sent: unknown[] } => {
  const sent: unknown[] = [];
  return { sent, signal, sink: { notify: async (n) => void sent.push(n) } };
};
const sampling = { method: 'sampling/createMessage' as const, params: { maxTokens: 5, messages: [] } };
const local = () => createInputFlows({ timeoutMs: () => 60_000 });
const key = randomBytes(32);

/** Replicas `a` and `b` on one link with one key. */
function twoReplicas(ackMs?: number): { a: InputFlows; b: InputFlows; bus: ReturnType<typeof createLink> } {
  const bus = createLink();
  return { a: fleetFlows(local(), bus.link('a', key, ackMs)), b: fleetFlows(local(), bus.link('b', key, ackMs)), bus };
}

describe('input flows across replicas', () => {
  it('takes a retry on the other replica: the answers reach the call, its progress and outcome come back', async () => {
    const { a, b } = twoReplicas();
    const first = await a.start(
      'caller',
      async (asker, signal) => {
        const one = await asker.ask(sampling, signal);
        await asker.notify({ method: 'notifications/progress', params: { progress: 1 } });
        const two = await asker.ask(sampling, signal);
        return { got: [one, two] };
      },
      round(),
    );
    if (first.kind !== 'input') throw new Error('no input asked');
    expect(first.state).toMatch(/^r1\./);
    const second = round();
    const next = await b.resume('caller', first.state, { 'input-1': 'yes' }, second);
    if (next.kind !== 'input') throw new Error('no second input asked');
    expect(next.requests).toEqual({ 'input-2': sampling });
    expect(second.sent).toEqual([{ method: 'notifications/progress', params: { progress: 1 } }]);
    // The next round's state names the call's replica again, and is taken there too.
    expect(await a.resume('caller', next.state, { 'input-2': 'and yes' }, round())).toEqual({
      kind: 'done',
      value: { got: ['yes', 'and yes'] },
    });
    expect(a.size()).toBe(0);
  });

  it('seals every round of a call resumed on its own replica', async () => {
    const { a } = twoReplicas();
    const first = await a.start(
      'caller',
      async (asker, signal) => [await asker.ask(sampling, signal), await asker.ask(sampling, signal)],
      round(),
    );
    if (first.kind !== 'input') throw new Error('no input asked');
    const next = await a.resume('caller', first.state, { 'input-1': 1 }, round());
    if (next.kind !== 'input') throw new Error('no second input asked');
    expect(next.state).toMatch(/^r1\./);
    expect(await a.resume('caller', next.state, { 'input-2': 2 }, round())).toEqual({ kind: 'done', value: [1, 2] });
  });

  it("refuses another caller's state through the other replica, and a forged one without a message", async () => {
    const { a, b, bus } = twoReplicas();
    const first = await a.start('caller', async (asker, signal) => asker.ask(sampling, signal), round());
    if (first.kind !== 'input') throw new Error('no input asked');
    await expect(b.resume('intruder', first.state, {}, round())).rejects.toThrow('Invalid or expired requestState');
    const before = bus.sent.length;
    const altered = `${first.state.slice(0, -2)}${first.state.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of [altered, 'r1.YQ.flow.mac', 'made-up', first.state.replace('r1.', 'r2.')])
      await expect(b.resume('caller', forged, {}, round())).rejects.toThrow('Invalid or expired requestState');
    expect(bus.sent.length).toBe(before);
    // Sealed with another key: refused as well.
    const other = fleetFlows(local(), createLink().link('a', randomBytes(32)));
    const elsewhere = await other.start('caller', async (asker, signal) => asker.ask(sampling, signal), round());
    if (elsewhere.kind !== 'input') throw new Error('no input asked');
    await expect(b.resume('caller', elsewhere.state, {}, round())).rejects.toThrow('Invalid or expired requestState');
    a.close();
    other.close();
  });

  it('refuses a state whose replica is gone as expired, and fails a round whose replica dies with the call', async () => {
    const { a, b, bus } = twoReplicas(100);
    const endless = async (asker: InputAsker, signal: AbortSignal) => {
      await asker.ask(sampling, signal);
      return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    };
    const first = await a.start('caller', endless, round());
    if (first.kind !== 'input') throw new Error('no input asked');
    // The call's replica takes the retry, then dies while the call goes on.
    const dying = b.resume('caller', first.state, { 'input-1': 'x' }, round());
    const lost = expect(dying).rejects.toThrow(/replica running this call stopped answering/);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const taken = await waitForMessage(bus.sent, 'ack');
    expect(taken).toBe(true);
    bus.cut.add('a');
    await lost;
    // A new call whose replica is gone before its retry.
    const { a: a2, b: b2, bus: bus2 } = twoReplicas(100);
    const next = await a2.start('caller', async (asker, signal) => asker.ask(sampling, signal), round());
    if (next.kind !== 'input') throw new Error('no input asked');
    bus2.cut.add('a');
    await expect(b2.resume('caller', next.state, {}, round())).rejects.toThrow('Invalid or expired requestState');
    a.close();
    a2.close();
  });

  it('cancels the call when the agent hangs up on the retry of the other replica', async () => {
    const { a, b } = twoReplicas();
    let cancelled!: Promise<void>;
    const first = await a.start(
      'caller',
      async (asker, signal) => {
        cancelled = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
        await asker.ask(sampling, signal);
        return new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      },
      round(),
    );
    if (first.kind !== 'input') throw new Error('no input asked');
    const agent = new AbortController();
    const retried = b.resume('caller', first.state, { 'input-1': 'x' }, round(agent.signal));
    agent.abort();
    await cancelled;
    await expect(retried).rejects.toThrow(/hung up/);
    expect(a.size()).toBe(0);
  });
});

/** Wait until a message of kind `t` was sent (the link delivers a turn later). */
async function waitForMessage(sent: FlowMessage[], t: FlowMessage['t']): Promise<boolean> {
  for (let i = 0; i < 100 && !sent.some((m) => m.t === t); i++) await new Promise((r) => setImmediate(r));
  return sent.some((m) => m.t === t);
}
