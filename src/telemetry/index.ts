/**
 * Traces (issue 21): the settings read from the config and the `OTEL_*` environment, the
 * spans of requests and their context carried in `params._meta`. `@opentelemetry/api` only:
 * the SDK is in start-tracing.ts, which main.ts loads by a dynamic import when tracing is on.
 * @module
 */
export {
  endRequestSpan,
  type RelayedRequest,
  type ServedRequest,
  STEP_SPAN_MS,
  sendTraced,
  serveTraced,
  startClientSpan,
  startServerSpan,
  stepSpan,
  type Traced,
  traceIdOf,
} from './call-spans.js';
export {
  DURATION_BUCKETS,
  type DurationSeries,
  MAX_SERIES,
  type OperationDurations,
} from './operation-durations.js';
export {
  carryTrace,
  extractTraceContext,
  formatTraceparent,
  parseTraceparent,
  TRACEPARENT,
  traceFields,
  withTraceFields,
} from './trace-context.js';
export { tracedLog } from './traced-log.js';
export { type SamplerSetting, type TracingSettings, tracingSettings } from './tracing-settings.js';
