/**
 * Input flows valid on any replica (issue 22 part 5, ADR 044): an `input_required` round's
 * call keeps running on the replica that started it (its upstream request is live on that
 * replica's connection and cannot move), so its `requestState` names that replica and the
 * flow, authenticated with a key every replica derives from `BOTERNITY_CLUSTER_KEY`. A retry
 * that reaches another replica is forwarded on the fleet bus to the one named, which answers
 * the round there and sends back its outcome (the call's result, the next `input_required`,
 * or the error), its mid-round notifications (progress) on the way; the agent's hanging up
 * is forwarded too. A forged or altered state is refused at once, without a message sent; one
 * whose replica does not answer within `ackMs` (stopped, killed) is refused as expired, and a
 * round whose replica stops confirming it (every `ackMs / 2`) while it runs fails at once.
 * @module
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { WireError } from '../requests/index.js';
import type { InputFlows, Round, RoundAnswer } from './input-flows.js';

/** What travels on the fleet bus between the replica of a retry and the flow's. */
export type FlowMessage =
  | {
      readonly t: 'resume';
      readonly to: string;
      readonly from: string;
      readonly id: string;
      readonly flow: string;
      readonly owner: string;
      readonly responses: Record<string, unknown>;
    }
  | { readonly t: 'ack' | 'hangup'; readonly to: string; readonly id: string }
  | { readonly t: 'notify'; readonly to: string; readonly id: string; readonly notification: Notification }
  | { readonly t: 'answer'; readonly to: string; readonly id: string; readonly answer: RoundAnswer }
  | { readonly t: 'error'; readonly to: string; readonly id: string; readonly error: WireShape };

type Notification = { method: string; params?: Record<string, unknown> };
type WireShape = { code: number; message: string; data?: unknown };

/** The fleet as the flows use it: this replica, a key, and a topic of the fleet bus. */
export type FlowsLink = {
  readonly replica: string;
  /** 32 bytes derived from the cluster key, the same on every replica. */
  readonly key: Buffer;
  publish(message: FlowMessage): Promise<void>;
  /** Resolves once listening. */
  subscribe(handler: (message: FlowMessage) => void): Promise<unknown>;
  /** How long a forwarded retry waits for the flow's replica to take it, or to confirm it again (default 5 s). */
  readonly ackMs?: number;
};

const PREFIX = 'r1.';
const MAC_BYTES = 18;
const EXPIRED = 'Invalid or expired requestState';
const LOST = 'the replica running this call stopped answering; the call is lost, call again';

/** `local` made fleet-wide over `link`: states name their replica; retries elsewhere are forwarded. */
export function fleetFlows(local: InputFlows, link: FlowsLink): InputFlows {
  const { replica, key, ackMs = 5_000 } = link;
  const mac = (body: string) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
  const seal = (flow: string) => {
    const body = `${Buffer.from(replica).toString('base64url')}.${flow}`;
    return `${PREFIX}${body}.${mac(body).toString('base64url')}`;
  };
  const open = (state: string): { replica: string; flow: string } | null => {
    if (!state.startsWith(PREFIX) || state.length > 512) return null;
    const [who, flow, tag] = state.slice(PREFIX.length).split('.');
    if (!who || !flow || !tag) return null;
    const given = Buffer.from(tag, 'base64url');
    const wanted = mac(`${who}.${flow}`);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
    return { replica: Buffer.from(who, 'base64url').toString('utf8'), flow };
  };
  const sealed = (answer: RoundAnswer): RoundAnswer =>
    answer.kind === 'input' ? { ...answer, state: seal(answer.state) } : answer;

  /** Retries of this replica waiting for another's answer, by message id. */
  const waiting = new Map<
    string,
    { round: Round; alive(): void; resolve(answer: RoundAnswer): void; reject(error: Error): void }
  >();
  /** Rounds this replica answers for another, by message id: their hang-up. */
  const serving = new Map<string, AbortController>();
  const send = (message: FlowMessage) => void link.publish(message).catch(() => undefined);
  /** Hang-ups that came before their retry (two NOTIFYs may commit out of order): a few, the latest. */
  const early = new Set<string>();
  const hangUps = (id: string) => {
    const served = serving.get(id);
    if (served) return served.abort();
    early.add(id);
    if (early.size > 64) early.delete(early.values().next().value as string);
  };

  const serve = (message: Extract<FlowMessage, { t: 'resume' }>) => {
    const hangUp = new AbortController();
    if (early.delete(message.id)) hangUp.abort();
    serving.set(message.id, hangUp);
    const reply = { to: message.from, id: message.id };
    const sink = { notify: async (notification: Notification) => send({ t: 'notify', ...reply, notification }) };
    // Taken, and still answered while it runs: the retry's replica fails it at once if this one dies.
    send({ t: 'ack', ...reply });
    const alive = setInterval(() => send({ t: 'ack', ...reply }), Math.max(50, ackMs / 2));
    alive.unref();
    local
      .resume(message.owner, message.flow, message.responses, { sink, signal: hangUp.signal })
      .then((answer) => send({ t: 'answer', ...reply, answer: sealed(answer) }))
      .catch((error: unknown) => send({ t: 'error', ...reply, error: wireShape(error) }))
      .finally(() => {
        clearInterval(alive);
        serving.delete(message.id);
      });
  };

  const ready = link.subscribe((message) => {
    if (message.to !== replica) return;
    if (message.t === 'resume') return serve(message);
    if (message.t === 'hangup') return hangUps(message.id);
    const wait = waiting.get(message.id);
    if (!wait) return;
    if (message.t === 'ack') wait.alive();
    else if (message.t === 'notify') void wait.round.sink.notify(message.notification).catch(() => undefined);
    else if (message.t === 'answer') wait.resolve(message.answer);
    else if (message.t === 'error')
      wait.reject(new WireError(message.error.code, message.error.message, message.error.data));
  });
  void ready.catch(() => undefined);

  /** Send a retry to the flow's replica and wait for the round's outcome. */
  const forward = async (
    to: string,
    flow: string,
    owner: string,
    responses: Record<string, unknown>,
    round: Round,
  ): Promise<RoundAnswer> => {
    await ready;
    const id = randomUUID();
    const hangUp = () => send({ t: 'hangup', to, id });
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<RoundAnswer>((resolve, reject) => {
        // Not taken within ackMs: the replica is gone, and the state as expired as an unknown one;
        // taken, then no word for ackMs: the replica died with the call.
        const lapse = (error: WireError) => {
          clearTimeout(timer);
          timer = setTimeout(() => reject(error), ackMs);
          timer.unref();
        };
        const alive = () => lapse(new WireError(ErrorCode.ConnectionClosed, LOST));
        waiting.set(id, { round, alive, resolve, reject });
        lapse(new WireError(ErrorCode.InvalidParams, EXPIRED));
        link.publish({ t: 'resume', to, from: replica, id, flow, owner, responses }).then(
          () => {
            // After the retry it names: an agent gone before it was sent is told at once.
            if (round.signal.aborted) hangUp();
            else round.signal.addEventListener('abort', hangUp, { once: true });
          },
          () => reject(new WireError(ErrorCode.InvalidParams, EXPIRED)),
        );
      });
    } finally {
      clearTimeout(timer);
      waiting.delete(id);
      round.signal.removeEventListener('abort', hangUp);
    }
  };

  return {
    ...local,
    async start(owner, run, round) {
      return sealed(await local.start(owner, run, round));
    },
    async resume(owner, state, responses, round) {
      const opened = open(state);
      if (!opened) throw new WireError(ErrorCode.InvalidParams, EXPIRED);
      if (opened.replica === replica) return sealed(await local.resume(owner, opened.flow, responses, round));
      return forward(opened.replica, opened.flow, owner, responses, round);
    },
    close() {
      for (const wait of waiting.values())
        wait.reject(new WireError(ErrorCode.ConnectionClosed, 'boternity is shutting down'));
      for (const hangUp of serving.values()) hangUp.abort();
      local.close();
    },
  };
}

/** An error as the far replica's agent is to receive it. */
function wireShape(error: unknown): WireShape {
  if (error instanceof WireError) return { code: error.code, message: error.message, data: error.data };
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === 'number' ? code : ErrorCode.InternalError, message };
}
