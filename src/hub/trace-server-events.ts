/**
 * Lifecycle spans (issue 21, seed 004): a server's whole connect loop is an
 * `mcp.connect_loop` span, from its first attempt (or the loss of its connection) until it
 * is connected, disabled or removed; each attempt is an `mcp.connect_attempt` child of it,
 * from its `connecting` event to `connected` or `reconnecting`, and each backoff wait an
 * event `backoff` on the loop with its delay. A live connection lost (a failed health ping,
 * the upstream gone) is an `mcp.connection_lost` span, the first child of the loop that
 * follows, whose status says why; a config applied is a `boternity.config.apply` span with a
 * child per server added, removed or changed. Made from the events the statecharts' own
 * actions report on the bus, so the machines stay as pure as they were (health pings are
 * traced by the hub's ping actor: trace-ping.ts).
 * @module
 */
import { type Attributes, ROOT_CONTEXT, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { SERVER_STATE_EVENT_TYPES } from '../../machines/index.js';
import type { EventBus } from '../bus/create-event-bus.js';
import type { AppConfig, ServerConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';

/** Options of {@link traceServerEvents}. */
export type TraceServerEventsOptions = {
  readonly bus: EventBus<HubEvent>;
  readonly tracer: Tracer;
  readonly config: () => AppConfig;
};

/** A server's open loop, its attempts so far, and its open attempt. */
type Loop = { readonly span: Span; attempts: number; attempt: Span | null };

/** Follow the bus; returns the function that stops (ending the loops and attempts still open). */
export function traceServerEvents({ bus, tracer, config }: TraceServerEventsOptions): () => void {
  const loops = new Map<string, Loop>();
  const serverAttributes = (server: string): Attributes => {
    const entry = config().mcpServers[server];
    return {
      'mcp.server': server,
      ...(entry ? { 'mcp.endpoint': endpointOf(entry), 'mcp.transport': entry.transport } : {}),
    };
  };
  const loopOf = (server: string): Loop => {
    let loop = loops.get(server);
    if (!loop) {
      loop = {
        span: tracer.startSpan('mcp.connect_loop', { attributes: serverAttributes(server) }),
        attempts: 0,
        attempt: null,
      };
      loops.set(server, loop);
    }
    return loop;
  };
  const endLoop = (server: string, outcome: string, error?: string) => {
    const loop = loops.get(server);
    if (!loop) return;
    loops.delete(server);
    loop.attempt?.setAttribute('mcp.outcome', outcome);
    if (error) loop.attempt?.setStatus({ code: SpanStatusCode.ERROR, message: error });
    loop.attempt?.end();
    loop.span.setAttributes({ 'mcp.outcome': outcome, 'mcp.attempts': loop.attempts });
    if (error) loop.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    loop.span.end();
  };
  const unsubscribe = bus.subscribeTo([...SERVER_STATE_EVENT_TYPES, 'config_applied'], ({ event }) => {
    switch (event.type) {
      case 'connecting': {
        const loop = loopOf(event.server);
        loop.attempt?.end();
        loop.attempts += 1;
        const attributes = { ...serverAttributes(event.server), 'mcp.attempt': event.attempt };
        loop.attempt = tracer.startSpan('mcp.connect_attempt', { attributes }, trace.setSpan(ROOT_CONTEXT, loop.span));
        return;
      }
      case 'connected': {
        const loop = loops.get(event.server);
        const attributes = { 'mcp.transport': event.transport, 'mcp.tools': event.toolCount };
        loop?.attempt?.setAttributes(attributes);
        loop?.span.setAttributes(attributes);
        endLoop(event.server, 'connected');
        return;
      }
      case 'reconnecting': {
        // A failed attempt, or a live connection lost (no attempt open: a failed health ping, the upstream gone).
        const open = loops.get(event.server)?.attempt;
        const loop = loopOf(event.server);
        const message = event.error?.message ?? 'closed';
        // A lost connection's status says why: `health ping failed: …`, the upstream closed, …
        const span =
          open ??
          tracer.startSpan(
            'mcp.connection_lost',
            { attributes: serverAttributes(event.server) },
            trace.setSpan(ROOT_CONTEXT, loop.span),
          );
        loop.attempt = null;
        span.setAttributes({ 'mcp.outcome': 'failed', 'error.type': event.error?.code ?? 'connect_failed' });
        span.setStatus({ code: SpanStatusCode.ERROR, message });
        span.end();
        loop.span.addEvent('backoff', { 'mcp.backoff.delay_ms': event.delayMs, 'mcp.attempt': event.attempt });
        return;
      }
      case 'needs_authorization':
        // The attempt ended waiting for an OAuth authorization (issue 23): no backoff follows,
        // the loop ends until someone authorizes.
        loops.get(event.server)?.attempt?.setAttribute('error.type', 'needs_authorization');
        endLoop(event.server, 'needs_authorization', event.error?.message ?? 'needs authorization');
        return;
      case 'disabled':
        // The last attempt allowed failed: no backoff follows.
        endLoop(
          event.server,
          `disabled (${event.reason})`,
          event.reason === 'exhausted' ? 'backoff.maxAttempts reached' : undefined,
        );
        return;
      case 'removed':
        endLoop(event.server, 'removed');
        return;
      case 'config_applied':
        configApplySpan(tracer, event).end();
        return;
    }
  });
  return () => {
    unsubscribe();
    for (const server of [...loops.keys()]) endLoop(server, 'stopped');
  };
}

/** What a config apply changed; `first`: the config the service started with. */
export type ConfigChange = {
  readonly file: string | null;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  readonly first?: boolean;
};

/** Begin the `boternity.config.apply` span of `change`, with its children; the caller ends it. */
export function configApplySpan(tracer: Tracer, change: ConfigChange): Span {
  const span = tracer.startSpan('boternity.config.apply', {
    attributes: {
      'boternity.config.file': change.file ?? '',
      'boternity.config.first': change.first === true,
      'boternity.config.added': [...change.added],
      'boternity.config.removed': [...change.removed],
      'boternity.config.changed': [...change.changed],
    },
  });
  const parent = trace.setSpan(ROOT_CONTEXT, span);
  for (const [name, servers] of [
    ['mcp.server.add', change.added],
    ['mcp.server.remove', change.removed],
    ['mcp.server.change', change.changed],
  ] as const)
    for (const server of servers) tracer.startSpan(name, { attributes: { 'mcp.server': server } }, parent).end();
  return span;
}

/** Where a server is reached, without credentials: a URL's origin and path, or a command without its arguments. */
export function endpointOf(entry: ServerConfig): string {
  if (entry.transport === 'stdio') return entry.command;
  try {
    const url = new URL(entry.url);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
