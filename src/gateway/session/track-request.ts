/**
 * The requests an agent session has in flight (SPEC X7, X8): each gets a signal of its own,
 * aborted with the reason it ends, so what is relayed upstream is cancelled there and the
 * audit row says why (the client cancelled, its token was revoked, the service is stopping)
 * rather than the upstream's failure the abort causes.
 * @module
 */
import { HubError, RequestEndedError } from '../../errors.js';
import type { AgentSession, InflightRequest } from './agent-session.js';

/** One request being served: its signal, and `end()` once it has answered. */
export type TrackedRequest = { readonly signal: AbortSignal; end(): void };

/**
 * Begin a request of `session`; `cancelled` is the caller's own signal (the agent's
 * cancellation, or a modern call's flow, which may end it with a reason of its own).
 */
export function trackRequest(session: AgentSession, cancelled: AbortSignal): TrackedRequest {
  const controller = new AbortController();
  const onCancel = () =>
    controller.abort(
      cancelled.reason instanceof HubError ? cancelled.reason : new RequestEndedError('client cancelled'),
    );
  if (cancelled.aborted) onCancel();
  else cancelled.addEventListener('abort', onCancel, { once: true });
  let settle: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const request: InflightRequest = { controller, ended };
  session.requests.add(request);
  return {
    signal: controller.signal,
    end() {
      // Nothing keeps the request once it has answered: no listener is left on the caller's signal.
      cancelled.removeEventListener('abort', onCancel);
      session.requests.delete(request);
      settle();
    },
  };
}

/** Run `work` under a tracked request of `session` (see {@link trackRequest}); ends it however `work` ends. */
export async function runTracked<T>(
  session: AgentSession,
  cancelled: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const request = trackRequest(session, cancelled);
  try {
    return await work(request.signal);
  } finally {
    request.end();
  }
}

/** End every request `session` has in flight with `reason` (each answers with it); returns how many. */
export function endRequests(session: AgentSession, reason: Error): number {
  const running = [...session.requests];
  for (const request of running) request.controller.abort(reason);
  return running.length;
}

/**
 * Resolve once every request of `sessions` has answered, or after `withinMs`; true when
 * they all had. The timer does not keep the process alive.
 */
export async function requestsSettled(sessions: readonly AgentSession[], withinMs: number): Promise<boolean> {
  const ended = sessions.flatMap((session) => [...session.requests].map((r) => r.ended));
  if (ended.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), withinMs);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.all(ended).then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long requests ended on purpose (shutdown, revocation, a bot deleted) get to send their answer. */
export const ANSWER_WITHIN_MS = 1_000;

/** Close `chosen`; resolves to how many. */
export async function closeSessions(chosen: readonly AgentSession[]): Promise<number> {
  await Promise.allSettled(chosen.map((s) => s.close()));
  return chosen.length;
}

/** End what `chosen` have in flight with `reason`, let the answers leave, then close them; resolves to how many. */
export async function endSessions(chosen: readonly AgentSession[], reason: () => Error): Promise<number> {
  for (const session of chosen) endRequests(session, reason());
  await requestsSettled(chosen, ANSWER_WITHIN_MS);
  // The SDK sends an answer a few promise turns after its handler returns.
  await new Promise((resolve) => setImmediate(resolve));
  return closeSessions(chosen);
}
