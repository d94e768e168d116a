/**
 * Lifecycle spans (issue 21, seed 004): each connection attempt of a server is an
 * `mcp.connect_attempt` span, from its `connecting` event to `connected` or `reconnecting`
 * (the backoff wait that follows is an event `backoff` on it, with the delay); a slow health
 * ping is an `mcp.health_ping` span, a live connection lost (a failed health ping, the
 * upstream gone) an `mcp.connection_lost` one, whose status says why; a config applied is a `boternity.config.apply` span with a child
 * per server added, removed or changed. Made from the events the statecharts' own actions
 * report on the bus, so the machines stay as pure as they were.
 * @module
 */
import { type Attributes, ROOT_CONTEXT, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { EventBus } from '../bus/create-event-bus.js';
import type { AppConfig, ServerConfig } from '../config/schema.js';
import type { HubEvent } from '../events/hub-event.js';

/** Options of {@link traceServerEvents}. */
export type TraceServerEventsOptions = {
  readonly bus: EventBus<HubEvent>;
  readonly tracer: Tracer;
  readonly config: () => AppConfig;
  /** A ping slower than this gets a span. */
  readonly slowPingMs: number;
};

/** Follow the bus; returns the function that stops (ending the attempts still open). */
export function traceServerEvents({ bus, tracer, config, slowPingMs }: TraceServerEventsOptions): () => void {
  const attempts = new Map<string, Span>();
  const serverAttributes = (server: string): Attributes => {
    const entry = config().mcpServers[server];
    return {
      'mcp.server': server,
      ...(entry ? { 'mcp.endpoint': endpointOf(entry), 'mcp.transport': entry.transport } : {}),
    };
  };
  const unsubscribe = bus.subscribe(({ event }) => {
    switch (event.type) {
      case 'connecting': {
        attempts.get(event.server)?.end();
        const attributes = { ...serverAttributes(event.server), 'mcp.attempt': event.attempt };
        attempts.set(event.server, tracer.startSpan('mcp.connect_attempt', { attributes }));
        return;
      }
      case 'connected': {
        const span = attempts.get(event.server);
        attempts.delete(event.server);
        span?.setAttributes({
          'mcp.outcome': 'connected',
          'mcp.transport': event.transport,
          'mcp.tools': event.toolCount,
        });
        span?.end();
        return;
      }
      case 'reconnecting': {
        // A failed attempt, or a live connection lost (a failed health ping, the upstream gone).
        const open = attempts.get(event.server);
        attempts.delete(event.server);
        const message = event.error?.message ?? 'closed';
        // A lost connection's status says why: `health ping failed: …`, the upstream closed, …
        const span = open ?? tracer.startSpan('mcp.connection_lost', { attributes: serverAttributes(event.server) });
        span.setAttributes({ 'mcp.outcome': 'failed', 'error.type': event.error?.code ?? 'connect_failed' });
        span.setStatus({ code: SpanStatusCode.ERROR, message });
        span.addEvent('backoff', { 'mcp.backoff.delay_ms': event.delayMs, 'mcp.attempt': event.attempt });
        span.end();
        return;
      }
      case 'needs_authorization': {
        // The attempt ended waiting for an OAuth authorization (issue 23): no backoff follows.
        const span = attempts.get(event.server);
        attempts.delete(event.server);
        span?.setAttributes({ 'mcp.outcome': 'needs_authorization', 'error.type': 'needs_authorization' });
        span?.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.message ?? 'needs authorization' });
        span?.end();
        return;
      }
      case 'disabled':
      case 'removed': {
        const span = attempts.get(event.server);
        attempts.delete(event.server);
        span?.setAttribute('mcp.outcome', event.type === 'disabled' ? `disabled (${event.reason})` : 'removed');
        // The last attempt allowed failed: no backoff follows.
        if (event.type === 'disabled' && event.reason === 'exhausted')
          span?.setStatus({ code: SpanStatusCode.ERROR, message: 'backoff.maxAttempts reached' });
        span?.end();
        return;
      }
      case 'health': {
        if (event.latencyMs < slowPingMs) return;
        const startTime = event.at - event.latencyMs;
        tracer
          .startSpan('mcp.health_ping', {
            startTime,
            attributes: { ...serverAttributes(event.server), 'mcp.outcome': 'slow' },
          })
          .end(event.at);
        return;
      }
      case 'config_applied': {
        const span = tracer.startSpan('boternity.config.apply', {
          attributes: {
            'boternity.config.file': event.file ?? '',
            'boternity.config.added': [...event.added],
            'boternity.config.removed': [...event.removed],
            'boternity.config.changed': [...event.changed],
          },
        });
        const parent = trace.setSpan(ROOT_CONTEXT, span);
        for (const [name, servers] of [
          ['mcp.server.add', event.added],
          ['mcp.server.remove', event.removed],
          ['mcp.server.change', event.changed],
        ] as const)
          for (const server of servers) tracer.startSpan(name, { attributes: { 'mcp.server': server } }, parent).end();
        span.end();
        return;
      }
      default:
        return;
    }
  });
  return () => {
    unsubscribe();
    for (const span of attempts.values()) span.end();
    attempts.clear();
  };
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
