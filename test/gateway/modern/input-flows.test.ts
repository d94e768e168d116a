/**
 * Input flows (ADR 013): an upstream's request during a modern call ends the round with
 * `input_required`; the retry's answer reaches the upstream and the call goes on; a state
 * that is unknown, another caller's, or expired is refused; an unanswered round expires
 * with a clear error to the upstream and cancels the call.
 */
import { describe, expect, it } from 'vitest';
import { createInputFlows, type InputAsker, type Round } from '../../../src/gateway/modern/input-flows.js';

const round = (signal = new AbortController().signal): Round & { sent: unknown[] } => {
  const sent: unknown[] = [];
  return { sent, signal, sink: { notify: async (n) => void sent.push(n) } };
};
const sampling = { method: 'sampling/createMessage' as const, params: { maxTokens: 5, messages: [] } };

describe('input flows', () => {
  it('asks, relays the answer on the retry, and finishes with the call', async () => {
    const flows = createInputFlows({ timeoutMs: () => 60_000 });
    const first = await flows.start(
      'a',
      async (asker: InputAsker, signal) => {
        await asker.notify({ method: 'notifications/progress', params: { progress: 1 } });
        const answer = await asker.ask(sampling, signal);
        return { got: answer };
      },
      round(),
    );
    expect(first).toMatchObject({ kind: 'input', requests: { 'input-1': sampling } });
    if (first.kind !== 'input') throw new Error('no input asked');
    await expect(flows.resume('b', first.state, {}, round())).rejects.toThrow('Invalid or expired requestState');
    const next = round();
    expect(await flows.resume('a', first.state, { 'input-1': 'yes' }, next)).toEqual({
      kind: 'done',
      value: { got: 'yes' },
    });
    expect(flows.size()).toBe(0);
    await expect(flows.resume('a', first.state, {}, round())).rejects.toThrow('Invalid or expired requestState');
  });

  it('expires an unanswered round: the upstream hears why and the call is cancelled', async () => {
    const flows = createInputFlows({ timeoutMs: () => 20 });
    let failed: unknown = null;
    let cancelled: Promise<void> = Promise.resolve();
    const first = await flows.start(
      'a',
      async (asker, signal) => {
        cancelled = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
        return asker.ask(sampling, signal).catch((error: unknown) => {
          failed = error;
        });
      },
      round(),
    );
    expect(first.kind).toBe('input');
    await cancelled;
    expect(String(failed)).toMatch(/did not answer sampling\/createMessage within 0 s/);
    expect(flows.size()).toBe(0);
  });

  it('cancels the call when the agent hangs up mid-round', async () => {
    const flows = createInputFlows({ timeoutMs: () => 60_000 });
    const hangUp = new AbortController();
    let aborted = false;
    const answer = flows.start(
      'a',
      (_asker, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          }),
        ),
      round(hangUp.signal),
    );
    hangUp.abort();
    await expect(answer).rejects.toThrow(/hung up/);
    expect(aborted).toBe(true);
  });

  it('on stop ends a flow that would wait for a retry: the upstream hears why, the round answers with the call', async () => {
    const flows = createInputFlows({ timeoutMs: () => 60_000 });
    const stopping = new Error('server shutting down');
    expect(flows.stop(stopping)).toBe(0);
    let upstreamHeard: unknown = null;
    const answer = await flows.start(
      'a',
      async (asker, signal) => {
        await asker.ask(sampling, signal).catch((error: unknown) => {
          upstreamHeard = error;
        });
        return { cancelledWith: signal.reason };
      },
      round(),
    );
    expect(answer).toEqual({ kind: 'done', value: { cancelledWith: stopping } });
    expect(String(upstreamHeard)).toBe('WireError: server shutting down: sampling/createMessage will not be answered');
    expect(flows.size()).toBe(0);
  });
});
