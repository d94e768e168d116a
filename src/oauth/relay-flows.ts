/**
 * Authorizations across the replicas of a fleet (cluster mode, SPEC K4): a flow lives in the
 * memory of the replica that started it (its PKCE verifier never leaves it), but behind a
 * balancer its `/oauth/callback`, the CLI's wait or a pasted address often reach another
 * replica. That one asks the fleet (`oauth.flows`); the holder says it has the flow at once,
 * does the work itself, and sends the outcome back (`oauth.flows.answer`). No holder answering
 * within `ackMs`: the state is unknown, as on one replica.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { HubError, OAuthFlowError } from '../errors.js';
import type { AuthorizeFlows, Finisher, Redirect } from './authorize-flows.js';

/** The fleet bus as the relay uses it (src/cluster's `FleetBus`). */
export type FlowBus = {
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe(
    topic: string,
    handler: (message: { readonly self: boolean; readonly payload: unknown }) => void | Promise<void>,
  ): Promise<() => Promise<void>>;
};

const ASK = 'oauth.flows';
const ANSWER = 'oauth.flows.answer';

type Ask =
  | { ref: string; op: 'finish'; state: string; redirect: Redirect; by: Finisher }
  | { ref: string; op: 'wait'; state: string; owner: string }
  | { ref: string; op: 'ui'; state: string };
type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };
type Answer = { ref: string; ack?: true; outcome?: Outcome };
type Asking = { acked(): void; settle(outcome: Outcome): void };

const unknownState = () =>
  new OAuthFlowError('unknown, used or expired authorization state: start again with bnity mcp auth NAME');

/** `local`'s flows, with the ones other replicas hold reached over `bus`; `stop` ends the subscriptions. */
export async function relayFlows(
  local: AuthorizeFlows,
  bus: FlowBus,
  { ackMs = 2_000 }: { ackMs?: number } = {},
): Promise<{ flows: AuthorizeFlows; stop(): Promise<void> }> {
  const asking = new Map<string, Asking>();
  const answer = (payload: Answer) => bus.publish(ANSWER, payload).catch(() => undefined);
  const serve = async (ask: Ask) => {
    const held = local.holds(ask.state);
    if (held === null || (held === 'spent' && ask.op !== 'wait')) return;
    await answer({ ref: ask.ref, ack: true });
    let outcome: Outcome;
    try {
      const value =
        ask.op === 'finish'
          ? await local.finish(ask.redirect, ask.by)
          : ask.op === 'wait'
            ? await local.wait(ask.state, ask.owner, AbortSignal.timeout(15 * 60_000))
            : await local.startedInUi(ask.state);
      outcome = { ok: true, value };
    } catch (error) {
      const code = error instanceof HubError ? error.code : 'bad_request';
      outcome = { ok: false, code, message: error instanceof Error ? error.message : String(error) };
    }
    await answer({ ref: ask.ref, outcome });
  };
  const stops = [
    // Not awaited: the bus hands a topic's messages over one after another, and a wait lasts.
    await bus.subscribe(ASK, ({ self, payload }) => {
      if (!self) void serve(payload as Ask);
    }),
    await bus.subscribe(ANSWER, ({ payload }) => {
      const { ref, ack, outcome } = payload as Answer;
      const waiting = asking.get(ref);
      if (ack) waiting?.acked();
      if (outcome) waiting?.settle(outcome);
    }),
  ];

  /** Ask the fleet; rejects with `missing()` when no replica holds the flow. */
  const ask = <T>(question: Ask, missing: () => T, signal?: AbortSignal): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const none = () => {
        try {
          resolve(missing());
        } catch (error) {
          reject(error);
        }
      };
      let timer: NodeJS.Timeout | undefined = setTimeout(() => done(none), ackMs);
      const stop = () => done(() => reject(new HubError('request_ended', 'stopped waiting')));
      const done = (then: () => void) => {
        clearTimeout(timer);
        asking.delete(question.ref);
        signal?.removeEventListener('abort', stop);
        then();
      };
      signal?.addEventListener('abort', stop, { once: true });
      asking.set(question.ref, {
        acked: () => {
          clearTimeout(timer);
          timer = undefined;
        },
        settle: (outcome) =>
          done(() =>
            outcome.ok ? resolve(outcome.value as T) : reject(new HubError(outcome.code as never, outcome.message)),
          ),
      });
      bus.publish(ASK, question).catch((error: unknown) => done(() => reject(error)));
    });

  const flows: AuthorizeFlows = {
    start: (options) => local.start(options),
    holds: (state) => local.holds(state),
    finish: (redirect, by) => {
      if (!redirect.state || local.holds(redirect.state) !== null) return local.finish(redirect, by);
      return ask({ ref: randomUUID(), op: 'finish', state: redirect.state, redirect, by }, () => {
        throw unknownState();
      });
    },
    wait: (state, owner, signal) => {
      if (local.holds(state) !== null) return local.wait(state, owner, signal);
      return ask(
        { ref: randomUUID(), op: 'wait', state, owner },
        () => {
          throw new OAuthFlowError('unknown, used or expired authorization state');
        },
        signal,
      );
    },
    startedInUi: (state) =>
      local.holds(state) !== null ? local.startedInUi(state) : ask({ ref: randomUUID(), op: 'ui', state }, () => false),
  };
  return {
    flows,
    stop: async () => {
      for (const stop of stops.splice(0)) await stop();
    },
  };
}
