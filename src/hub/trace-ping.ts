/**
 * Health pings as spans (issue 21): a ping that fails or is slower than
 * `telemetry.slowPingMs` (default 1 s) is an `mcp.health_ping` span of its own, timed as
 * the ping was, apart from the `mcp.connection_lost` that a failed one leads to. Made by
 * the hub's ping actor, which the statechart invokes (the tracer is provided like the
 * other actors; the machine stays pure); a ping that passes in time makes none.
 * @module
 */
import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { PingInput } from '../../machines/index.js';

/** The tracer pings are traced with, and what counts as slow. */
export type PingTraces = { readonly tracer: Tracer; readonly slowPingMs: number };

/**
 * A ping stopped this close to its deadline was stopped by the machine's own ping timeout
 * (both timers are set as the ping starts): its failure, not a connection left otherwise.
 */
const DEADLINE_SLACK_MS = 2;

/** Run `ping` (resolving with its latency) for `input`, making a span if it fails or is slow. */
export async function tracePing(
  traces: PingTraces,
  input: PingInput,
  signal: AbortSignal,
  ping: () => Promise<number>,
): Promise<number> {
  const startTime = Date.now();
  const started = performance.now();
  const record = (outcome: 'slow' | 'failed', error?: unknown) => {
    const span = traces.tracer.startSpan('mcp.health_ping', {
      startTime,
      attributes: {
        'mcp.server': input.serverId,
        'mcp.ping.kind': input.kind ?? 'health',
        'mcp.ping.timeout_ms': input.timeoutMs,
        'mcp.outcome': outcome,
      },
    });
    if (error !== undefined) {
      const code = (error as { code?: unknown } | null)?.code;
      span.setAttribute(
        'error.type',
        signal.aborted ? 'timeout' : code === undefined ? errorName(error) : String(code),
      );
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: signal.aborted
          ? `timed out after ${input.timeoutMs} ms`
          : error instanceof Error
            ? error.message
            : String(error),
      });
    }
    span.end(startTime + (performance.now() - started));
  };
  try {
    const latencyMs = await ping();
    if (latencyMs >= traces.slowPingMs) record('slow');
    return latencyMs;
  } catch (error) {
    // Stopped well before its deadline: the connection was left for another reason (closed,
    // removed, disabled), which has its own span.
    if (!signal.aborted || performance.now() - started >= input.timeoutMs - DEADLINE_SLACK_MS) record('failed', error);
    throw error;
  }
}

/** The class of a failure, for `error.type`. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.constructor.name || error.name : '_OTHER';
}
