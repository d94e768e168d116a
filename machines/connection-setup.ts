/**
 * `setup()` of the connection machine: types, placeholder actors, delays, guards and named
 * actions. The statechart itself is in `connection-machine.ts`.
 * @module
 */
import { assign, enqueueActions, setup } from 'xstate';
import { isExhausted, nextDelayMs } from './backoff.js';
import { connectUpstream, pingUpstream, timeoutError, watchUpstream } from './connection-actions.js';
import type { ConnectionContext, ConnectionEvent, ConnectionInput, ConnectionReport } from './connection-types.js';
import { isAuthorizationError, toErrorInfo } from './error-info.js';
import { sameSpec } from './reconcile.js';
import type { ServerEvent } from './types.js';

/**
 * How long after `connectTimeoutMs` the machine gives up on a connect itself. The connect
 * keeps its own deadline of the same length and rejects saying why (what a stdio child
 * printed) once it has ended what it started (a child's tree: SIGTERM, then SIGKILL after
 * the shutdown grace, 3 s by default); this timer is the backstop for one that does not.
 */
const CONNECT_BACKSTOP_MS = 5_000;

/** The typed `setup()` the connection statechart is created from. */
export const connectionSetup = setup({
  types: {
    input: {} as ConnectionInput,
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
    emitted: {} as ServerEvent,
  },
  actors: { connectUpstream, watchUpstream, pingUpstream },
  delays: {
    reconnectDelay: ({ context }) => context.nextDelayMs ?? 0,
    healthInterval: ({ context }) => context.spec.healthIntervalMs,
    pingTimeout: ({ context }) => context.spec.pingTimeoutMs,
    livenessTimeout: ({ context }) => context.spec.livenessTimeoutMs,
    connectTimeout: ({ context }) => context.spec.connectTimeoutMs + CONNECT_BACKSTOP_MS,
    stableAfter: ({ context }) => context.spec.backoff.resetAfterMs,
  },
  guards: {
    startsDisabled: ({ context }) => context.disabledReason !== null,
    resumes: ({ context }) => context.attempt > 0,
    exhausted: ({ context }) => isExhausted(context.attempt, context.spec.backoff),
    unchanged: ({ context, event }) => event.type === 'server.update' && sameSpec(context.spec, event.spec),
    updateDisables: ({ event }) => event.type === 'server.update' && !event.spec.enabled,
    disabledByConfig: ({ context }) => context.disabledReason === 'config',
    /** The failure asks for an OAuth authorization: waiting for it beats retrying (issue 23). */
    needsAuthorization: ({ event }) => 'error' in event && isAuthorizationError(event.error),
  },
  actions: {
    /** Emit the event from this actor and, when supervised, send it to the parent; `null` reports nothing. */
    report: enqueueActions(({ context, enqueue }, event: ServerEvent | null) => {
      if (event === null) return;
      enqueue.emit(event);
      if (context.parentRef) {
        const report: ConnectionReport = { type: 'connection.event', event };
        enqueue.sendTo(context.parentRef, report);
      }
    }),
    /** Count the attempt and compute its delay (`null` once attempts are exhausted). */
    countAttempt: assign(({ context }) => {
      const attempt = context.attempt + 1;
      const policy = context.spec.backoff;
      return {
        attempt,
        nextDelayMs: isExhausted(attempt, policy) ? null : nextDelayMs(attempt, policy, context.random),
      };
    }),
    /** `attempt` held `initialAttempt`: lower it so that entering `reconnecting` shows `initialAttempt`. */
    resumeAttempt: assign({ attempt: ({ context }) => context.attempt - 1 }),
    applySpec: assign({ spec: ({ context, event }) => (event.type === 'server.update' ? event.spec : context.spec) }),
    restart: assign({ attempt: 0, lastError: null }),
    connectTimedOut: assign({ lastError: ({ context }) => timeoutError('connect', context.spec.connectTimeoutMs) }),
    pingTimedOut: assign({ lastError: ({ context }) => timeoutError('health ping', context.spec.pingTimeoutMs) }),
    livenessTimedOut: assign({
      lastError: ({ context }) => timeoutError('liveness check', context.spec.livenessTimeoutMs),
    }),
    markStable: assign({ attempt: 0 }),
    /** The failure an invoked actor threw, or the one `upstream.closed` carries, as `lastError`. */
    keepError: assign({
      lastError: ({ context, event }) => {
        if (event.type === 'upstream.closed') return event.error ?? context.lastError;
        return 'error' in event ? toErrorInfo(event.error) : context.lastError;
      },
    }),
  },
});
