/**
 * Server-to-client requests in MCP 2026-07-28 (G6, ADR 013): a modern request has no stream
 * boternity could ask the agent on, so an upstream's sampling, elicitation or roots request
 * during a modern call ends that round with an `input_required` result. The call keeps
 * running here, under an unguessable `requestState` bound to its caller; the agent's retry
 * carries the answers, which go to the waiting upstream, and the next round waits again.
 * A round left unanswered for `timeoutMs` fails the upstream's requests with a clear error
 * and cancels the call. The flows live in this process (see docs/gateway.md, scale-out).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { WireError } from '../requests/index.js';

/** What an upstream asks of the agent, as the `input_required` result carries it. */
export type InputRequestSpec = {
  readonly method: 'sampling/createMessage' | 'elicitation/create' | 'roots/list';
  readonly params: Record<string, unknown>;
};

/** Where a round's mid-call notifications (progress, logging) go: the request that is being answered. */
export type RoundSink = { notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void> };

/** How a round ended: the call's own outcome, or the input the agent must give first. */
export type RoundAnswer =
  | { readonly kind: 'done'; readonly value: unknown }
  | { readonly kind: 'input'; readonly requests: Record<string, InputRequestSpec>; readonly state: string };

/** The agent side of a running flow: what the call path's channel asks through. */
export type InputAsker = {
  ask(request: InputRequestSpec, signal: AbortSignal): Promise<unknown>;
  notify: RoundSink['notify'];
};

/** The flows of one gateway. */
export type InputFlows = {
  /** Start `run` for `owner` and answer its first round. */
  start(
    owner: string,
    run: (asker: InputAsker, signal: AbortSignal) => Promise<unknown>,
    round: Round,
  ): Promise<RoundAnswer>;
  /** Answer a retry: `state` must be a live flow of `owner`; `responses` go to the requests they are keyed by. */
  resume(owner: string, state: string, responses: Record<string, unknown>, round: Round): Promise<RoundAnswer>;
  /** Flows waiting for an agent now. */
  size(): number;
  /**
   * The service is draining: flows waiting for a retry end now (the upstream hears why, the
   * call is cancelled with `reason`), and a flow still answering a round ends the same way
   * when it would wait for one; returns how many ended at once.
   */
  stop(reason: Error): number;
  /** Fail and cancel every flow (shutdown). */
  close(): void;
};

/** One round: the request answering it, and its signal (the agent hanging up cancels the call). */
export type Round = { readonly sink: RoundSink; readonly signal: AbortSignal };

type Pending = { readonly request: InputRequestSpec; resolve(value: unknown): void; reject(error: Error): void };
type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

type Flow = {
  readonly id: string;
  readonly owner: string;
  readonly controller: AbortController;
  /** The call's own outcome (set once it starts). */
  outcome: Promise<Settled>;
  readonly pending: Map<string, Pending>;
  /** Wakes the round waiting for the next input request. */
  wake: (() => void) | null;
  sink: RoundSink | null;
  timer: NodeJS.Timeout | null;
  asked: number;
};

const ASKED = Symbol('asked');

/** Create the flows; `timeoutMs`: how long an `input_required` round may wait for its retry. */
export function createInputFlows({ timeoutMs }: { timeoutMs: () => number }): InputFlows {
  const flows = new Map<string, Flow>();
  /** Set once the service drains: the reason flows that would wait are ended with. */
  let stopped: Error | null = null;

  /** End `flow`; `upstream`: what its pending requests fail with; `reason`: why the call is cancelled. */
  const end = (flow: Flow, upstream: WireError | null, reason: Error | null = upstream) => {
    if (flow.timer) clearTimeout(flow.timer);
    flows.delete(flow.id);
    if (upstream === null) return;
    for (const pending of flow.pending.values()) pending.reject(upstream);
    flow.pending.clear();
    flow.controller.abort(reason);
  };
  const expire = (flow: Flow, why: string) => end(flow, new WireError(ErrorCode.RequestTimeout, why));
  /** End `flow` because the service is stopping: its upstream hears that nobody will answer. */
  const endStopped = (flow: Flow, reason: Error) => {
    const what = [...flow.pending.values()].map((p) => p.request.method).join(', ') || 'input';
    end(flow, new WireError(ErrorCode.ConnectionClosed, `${reason.message}: ${what} will not be answered`), reason);
  };

  const nextAsk = (flow: Flow) =>
    flow.pending.size > 0
      ? Promise.resolve(ASKED)
      : new Promise<typeof ASKED>((resolve) => {
          flow.wake = () => resolve(ASKED);
        });

  const round = async (flow: Flow, { sink, signal }: Round): Promise<RoundAnswer> => {
    if (flow.timer) clearTimeout(flow.timer);
    flow.timer = null;
    flow.sink = sink;
    const hangUp = () => expire(flow, 'the agent hung up before the call finished');
    if (signal.aborted) hangUp();
    signal.addEventListener('abort', hangUp, { once: true });
    try {
      let next = await Promise.race([flow.outcome, nextAsk(flow)]);
      flow.wake = null;
      flow.sink = null;
      if (next === ASKED && stopped) {
        // No retry will be taken: the call ends now, and this round answers with how.
        endStopped(flow, stopped);
        next = await flow.outcome;
      }
      if (next !== ASKED) {
        end(flow, null);
        if (next.ok) return { kind: 'done', value: next.value };
        throw next.error;
      }
      const limit = timeoutMs();
      flow.timer = setTimeout(() => {
        const what = [...flow.pending.values()].map((p) => p.request.method).join(', ');
        expire(flow, `the agent did not answer ${what} within ${Math.round(limit / 1000)} s (an input_required round)`);
      }, limit);
      flow.timer.unref();
      const requests = Object.fromEntries([...flow.pending].map(([key, p]) => [key, p.request]));
      return { kind: 'input', requests, state: flow.id };
    } finally {
      signal.removeEventListener('abort', hangUp);
    }
  };

  return {
    start(owner, run, first) {
      const controller = new AbortController();
      const flow: Flow = {
        id: randomBytes(18).toString('base64url'),
        owner,
        controller,
        pending: new Map(),
        wake: null,
        sink: null,
        timer: null,
        asked: 0,
        outcome: Promise.resolve({ ok: true, value: undefined }),
      };
      const asker: InputAsker = {
        ask(request, signal) {
          const key = `input-${++flow.asked}`;
          return new Promise((resolve, reject) => {
            flow.pending.set(key, { request, resolve, reject });
            signal.addEventListener('abort', () => {
              if (flow.pending.delete(key)) reject(signal.reason ?? new Error('cancelled'));
            });
            flow.wake?.();
          });
        },
        notify: (notification) => flow.sink?.notify(notification) ?? Promise.resolve(),
      };
      flows.set(flow.id, flow);
      flow.outcome = run(asker, controller.signal).then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      );
      return round(flow, first);
    },
    resume(owner, state, responses, next) {
      const flow = flows.get(state);
      // Another caller's state is as unknown as a made-up one.
      if (!flow || flow.owner !== owner || flow.sink !== null)
        return Promise.reject(new WireError(ErrorCode.InvalidParams, 'Invalid or expired requestState'));
      for (const [key, value] of Object.entries(responses)) {
        const pending = flow.pending.get(key);
        if (!pending) continue;
        flow.pending.delete(key);
        pending.resolve(value);
      }
      return round(flow, next);
    },
    size: () => flows.size,
    stop(reason) {
      stopped = reason;
      const waiting = [...flows.values()].filter((flow) => flow.sink === null);
      for (const flow of waiting) endStopped(flow, reason);
      return waiting.length;
    },
    close() {
      for (const flow of [...flows.values()]) expire(flow, 'boternity is shutting down');
    },
  };
}
