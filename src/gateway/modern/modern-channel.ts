/**
 * The agent as a 2026-07-28 request reaches it (ADR 013): what it declared in the request's
 * `_meta`, the upstream's requests asked through an {@link InputAsker} (so they come back
 * as `input_required`), and notifications on the round being answered, logging filtered by
 * the `_meta` log level.
 * @module
 */
import type { ClientCapabilities, LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { AgentChannel, AgentRequestOptions, AgentSession, SessionContext } from '../session/index.js';
import type { InputAsker } from './input-flows.js';

const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

type Asked<K extends 'createMessage' | 'elicit' | 'listRoots'> = ReturnType<AgentChannel[K]>;
type ParamsOf<K extends 'createMessage' | 'elicit' | 'listRoots'> = Parameters<AgentChannel[K]>[0];

/** What a modern request declared in its `_meta`. */
export type ModernMeta = {
  readonly capabilities: ClientCapabilities | undefined;
  /** Logging messages at this level and above reach the agent; null: none do. */
  readonly logLevel: LoggingLevel | null;
  /** Whether the first round asked for progress. */
  readonly progress: boolean;
};

/** A modern request's channel; a class, so a request costs one object. */
class ModernChannel implements AgentChannel {
  constructor(
    private readonly meta: ModernMeta,
    private readonly asker: InputAsker,
  ) {}

  clientCapabilities() {
    return this.meta.capabilities;
  }

  createMessage(params: ParamsOf<'createMessage'>, { signal }: AgentRequestOptions) {
    return this.asker.ask({ method: 'sampling/createMessage', params }, signal) as Asked<'createMessage'>;
  }

  elicit(params: ParamsOf<'elicit'>, { signal }: AgentRequestOptions) {
    // The 2026-07-28 URL mode has no elicitationId: the requestState correlates.
    const { elicitationId: _, ...wire } = params as ParamsOf<'elicit'> & { elicitationId?: string };
    return this.asker.ask({ method: 'elicitation/create', params: wire }, signal) as Asked<'elicit'>;
  }

  listRoots(_params: ParamsOf<'listRoots'>, { signal }: AgentRequestOptions) {
    return this.asker.ask({ method: 'roots/list', params: {} }, signal) as Asked<'listRoots'>;
  }

  notify(notification: ServerNotification) {
    if (notification.method === 'notifications/message') {
      const { logLevel } = this.meta;
      if (logLevel === null || SEVERITY[notification.params.level] < SEVERITY[logLevel]) return Promise.resolve();
    }
    return this.asker.notify(notification as { method: string; params?: Record<string, unknown> });
  }
}

/**
 * The context of one modern call of `session`, run under a flow's `signal`; `trace`: its
 * SERVER span's context (tracing on), the parent of its guard steps and upstream requests.
 */
export function modernContext(
  session: AgentSession,
  meta: ModernMeta,
  asker: InputAsker,
  signal: AbortSignal,
  trace: Context | null = null,
): SessionContext {
  const channel = new ModernChannel(meta, asker);
  return {
    session,
    signal,
    channel,
    trace,
    progress: meta.progress
      ? (progress) => channel.notify({ method: 'notifications/progress', params: { ...progress, progressToken: 0 } })
      : null,
  };
}

/** What a request that asks the agent nothing runs with (lists, subscriptions): no flow, no notifications. */
export function quietContext(session: AgentSession, signal: AbortSignal, trace: Context | null = null): SessionContext {
  return modernContext(
    session,
    { capabilities: undefined, logLevel: null, progress: false },
    { ask: () => Promise.reject(new Error('this request asks the agent nothing')), notify: () => Promise.resolve() },
    signal,
    trace,
  );
}
