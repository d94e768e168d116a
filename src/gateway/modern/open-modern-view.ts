/**
 * The view session of MCP 2026-07-28 traffic (ADR 013): a modern request has no session, so
 * what a 2025 session holds for its requests (view, caller, `scope: "session"` upstream
 * connections, list fingerprints, resource subscriptions) is held here, one per endpoint,
 * token and client name, registered like any session: list changes, bot changes and
 * resource updates reach it, and it hands them to the `subscriptions/listen` streams of its
 * view. It idles out like a session; a revoked token closes it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { AgentUnsupportedError } from '../../errors.js';
import type { AgentChannel, AgentSession } from '../session/index.js';
import { endSession, type OpenDeps, registerSession, type SessionOptions } from '../session/index.js';

/** A modern view: who it is for, and where its notifications go. */
export type ModernViewOptions = SessionOptions & {
  /** The endpoint and token it belongs to (the same key as an HTTP session's owner). */
  owner: string;
  /** Hands a change notification to the view's `subscriptions/listen` streams. */
  publish(notification: ServerNotification): void;
  /** Whether a `subscriptions/listen` stream of the view is open (an open stream is activity). */
  listening(): boolean;
  onClose(): void;
};

/** Outside a request there is no way to ask a modern agent anything. */
const refuse = (capability: string) => () => Promise.reject(new AgentUnsupportedError(capability));

/** Register a modern view session. */
export function openModernView(deps: OpenDeps, options: ModernViewOptions): AgentSession {
  const channel: AgentChannel = {
    clientCapabilities: () => undefined,
    createMessage: refuse('sampling'),
    elicit: refuse('elicitation'),
    listRoots: refuse('roots'),
    notify: async (notification) => options.publish(notification),
  };
  const session = registerSession(
    deps,
    // Idle means no request and no open listen stream.
    { ...options, id: randomUUID(), owner: options.owner, idles: true, activeNow: options.listening },
    channel,
    async (s) => {
      await endSession(deps.path, s);
      options.onClose();
    },
  );
  return session;
}
