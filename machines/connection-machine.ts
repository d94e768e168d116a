/**
 * The connection statechart (SPEC S1, S2, S4, S5): one actor per upstream server. Pure:
 * connecting, watching and pinging are injected actors; every state entered reports one event.
 * @module
 */
import { and, assign } from 'xstate';
import {
  catalogEvent,
  connectedEvent,
  connectingEvent,
  disabledEvent,
  healthEvent,
  initialContext,
  needsAuthorizationEvent,
  prefixedError,
  reconnectingEvent,
  requireHandle,
} from './connection-actions.js';
import { connectionSetup } from './connection-setup.js';

export type {
  ConnectInput,
  ConnectionContext,
  ConnectionEvent,
  ConnectionInput,
  ConnectionReport,
  DisabledReason,
  PingInput,
  WatchEvent,
  WatchInput,
} from './connection-types.js';

/** One upstream connection: `connecting` → `connected` ⇄ `reconnecting`, `disabled`, final `removed`. */
export const connectionMachine = connectionSetup.createMachine({
  id: 'connection',
  context: ({ input }) => initialContext(input),
  initial: 'init',
  on: {
    'server.remove': '.removed',
    'server.disconnect': { target: '.disabled', reenter: true, actions: assign({ disabledReason: 'manual' }) },
    'server.update': [
      { guard: 'unchanged' },
      {
        guard: 'updateDisables',
        target: '.disabled',
        reenter: true,
        actions: ['applySpec', assign({ disabledReason: 'config' })],
      },
      { target: '.connecting', reenter: true, actions: ['applySpec', 'restart'] },
    ],
  },
  states: {
    init: {
      always: [
        { guard: 'startsDisabled', target: 'disabled' },
        { guard: 'resumes', target: 'reconnecting', actions: 'resumeAttempt' },
        { target: 'connecting' },
      ],
    },
    connecting: {
      entry: { type: 'report', params: ({ context }) => connectingEvent(context) },
      invoke: {
        src: 'connectUpstream',
        input: ({ context }) => ({ serverId: context.serverId, spec: context.spec, attempt: context.attempt }),
        onDone: {
          target: 'connected',
          actions: assign(({ event }) => ({
            handle: event.output,
            connectedAt: event.output.connectedAt,
            counts: event.output.counts,
            lastError: null,
          })),
        },
        onError: [
          { guard: 'needsAuthorization', target: 'needs_authorization', actions: 'keepError' },
          { target: 'reconnecting', actions: 'keepError' },
        ],
      },
      after: { connectTimeout: { target: 'reconnecting', actions: 'connectTimedOut' } },
    },
    connected: {
      entry: { type: 'report', params: ({ context }) => connectedEvent(context) },
      exit: assign({ handle: null, connectedAt: null }),
      invoke: {
        src: 'watchUpstream',
        input: ({ context }) => ({ serverId: context.serverId, handle: requireHandle(context) }),
        onError: [
          { guard: 'needsAuthorization', target: 'needs_authorization', actions: 'keepError' },
          { target: 'reconnecting', actions: 'keepError' },
        ],
      },
      on: {
        'upstream.closed': [
          // A refresh refused for good closes the connection with this error (issue 23).
          { guard: 'needsAuthorization', target: 'needs_authorization', actions: 'keepError' },
          {
            target: 'reconnecting',
            actions: assign({ lastError: ({ event }) => event.error ?? { message: 'upstream closed the connection' } }),
          },
        ],
        'upstream.catalog': {
          actions: [
            assign({ counts: ({ event }) => event.counts }),
            { type: 'report', params: ({ context, event }) => catalogEvent(context, event) },
          ],
        },
      },
      after: { stableAfter: { actions: 'markStable' } },
      initial: 'idle',
      states: {
        idle: { after: { healthInterval: 'pinging' }, on: { 'upstream.check': 'checking' } },
        pinging: {
          // A call met silence while a health ping runs: the short check replaces it.
          on: { 'upstream.check': 'checking' },
          invoke: {
            src: 'pingUpstream',
            input: ({ context }) => ({
              serverId: context.serverId,
              handle: requireHandle(context),
              timeoutMs: context.spec.pingTimeoutMs,
              kind: 'health' as const,
            }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ lastPingAt: event.output.at, pingLatencyMs: event.output.latencyMs })),
                { type: 'report', params: ({ context, event }) => healthEvent(context, event.output) },
              ],
            },
            onError: {
              target: '#connection.reconnecting',
              actions: assign({ lastError: ({ event }) => prefixedError('health ping failed', event.error) }),
            },
          },
          after: { pingTimeout: { target: '#connection.reconnecting', actions: 'pingTimedOut' } },
        },
        // A liveness check: one ping with a short timeout; a connection that fails it is dropped at once.
        checking: {
          invoke: {
            src: 'pingUpstream',
            input: ({ context }) => ({
              serverId: context.serverId,
              handle: requireHandle(context),
              timeoutMs: context.spec.livenessTimeoutMs,
              kind: 'liveness' as const,
            }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ lastPingAt: event.output.at, pingLatencyMs: event.output.latencyMs })),
                { type: 'report', params: ({ context, event }) => healthEvent(context, event.output) },
              ],
            },
            onError: {
              target: '#connection.reconnecting',
              actions: assign({ lastError: ({ event }) => prefixedError('liveness check failed', event.error) }),
            },
          },
          after: { livenessTimeout: { target: '#connection.reconnecting', actions: 'livenessTimedOut' } },
        },
      },
    },
    reconnecting: {
      entry: ['countAttempt', { type: 'report', params: ({ context }) => reconnectingEvent(context) }],
      exit: assign({ nextDelayMs: null }),
      always: { guard: 'exhausted', target: 'disabled', actions: assign({ disabledReason: 'exhausted' }) },
      after: { reconnectDelay: 'connecting' },
      on: { 'server.connect': 'connecting' },
    },
    // Issue 23: the upstream wants an OAuth authorization; nothing retries until `server.connect`
    // (sent once one is stored) or a config change.
    needs_authorization: {
      entry: { type: 'report', params: ({ context }) => needsAuthorizationEvent(context) },
      on: { 'server.connect': { target: 'connecting', actions: assign({ attempt: 0 }) } },
    },
    disabled: {
      entry: { type: 'report', params: ({ context }) => disabledEvent(context) },
      exit: assign({ disabledReason: null }),
      on: {
        'server.connect': { target: 'connecting', actions: assign({ attempt: 0 }) },
        'server.disconnect': {},
        'server.update': { guard: and(['updateDisables', 'disabledByConfig']), actions: 'applySpec' },
      },
    },
    removed: {
      type: 'final',
      entry: { type: 'report', params: ({ context }) => ({ type: 'removed', server: context.serverId }) },
    },
  },
});
