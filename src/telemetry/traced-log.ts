/**
 * Log lines that name the trace they belong to (issue 21), without a process-wide context
 * manager: the span's context is passed where the call path logs, and the line is written to
 * a child logger that carries `trace_id`/`span_id`. The child is made only when a line is
 * written, so a call that logs nothing pays nothing (ADR 035).
 * @module
 */
import { type Context, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';

/** `log`, or a child of it naming the span of `context`; `log` itself when there is none (traces off). */
export function tracedLog(log: Logger, context: Context | null | undefined): Logger {
  const span = context ? trace.getSpanContext(context) : undefined;
  return span ? log.child({ trace_id: span.traceId, span_id: span.spanId }) : log;
}
