/**
 * The logger of one agent request: the call path's, naming the request's trace when tracing
 * is on and `telemetry.logTraceIds` is not false (issue 21). Every line the call path writes
 * while it serves a request goes through here, so it carries that request's `trace_id`.
 * @module
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/schema.js';
import { tracedLog } from '../../telemetry/index.js';
import type { SessionContext } from './session-context.js';

/** What the request's logger is made from: the call path's logger and the config in force. */
export type RequestLogPath = { readonly log: Logger; readonly config: () => AppConfig };

/** The logger for lines about `ctx`'s request. */
export function requestLog(path: RequestLogPath, ctx: Pick<SessionContext, 'trace'>): Logger {
  return ctx.trace && path.config().telemetry.logTraceIds ? tracedLog(path.log, ctx.trace) : path.log;
}
