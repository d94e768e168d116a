/**
 * The OpenTelemetry SDK, started by `bnity serve` only when tracing is on (issue 21): the
 * one module that imports the SDK packages; main.ts loads it with a dynamic import, so a
 * service without tracing never loads them. A node tracer provider with parent-based
 * sampling, a bounded batch processor whose losses are counted, and the OTLP/HTTP protobuf
 * exporter. Nothing is registered globally: the tracer is handed down like any other dependency.
 * @module
 */
import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import { countDropped } from './count-dropped.js';
import { countOperationDurations, type OperationDurations } from './operation-durations.js';
import type { SamplerSetting, TracingSettings } from './tracing-settings.js';

/** The tracer every part gets, what was lost, and the flush on stop. */
export type Tracing = {
  readonly tracer: Tracer;
  /** Spans dropped so far: a full queue, or an export the collector did not take. */
  dropped(): number;
  /** A health ping slower than this gets a span (`telemetry.slowPingMs`). */
  readonly slowPingMs: number;
  /** The MCP duration histograms, counted from the spans that ended (absent: not counted). */
  readonly durations?: OperationDurations;
  /** Export what is queued (within the export timeout), then stop. */
  shutdown(): Promise<void>;
};

/** What {@link startTracing} takes besides the settings. */
export type StartTracingOptions = {
  readonly log: Logger;
  /** The exporter instead of OTLP/HTTP (tests give an in-memory one). */
  readonly exporter?: SpanExporter;
};

/** Start the SDK with `settings`; the exporter connects lazily, so a collector that is down fails nothing here. */
export function startTracing(settings: TracingSettings, { log, exporter }: StartTracingOptions): Tracing {
  const processor = countDropped(
    exporter ??
      new OTLPTraceExporter({
        url: settings.url,
        headers: { ...settings.headers },
        timeoutMillis: settings.exportTimeoutMs,
      }),
    settings.maxQueueSize,
    (failing, error) => {
      if (failing)
        log.warn(
          { err: error, url: settings.url },
          'traces not exported; spans are dropped until the collector answers',
        );
      else log.info({ url: settings.url }, 'traces exported again');
    },
    (counting) =>
      new BatchSpanProcessor(counting, {
        maxQueueSize: settings.maxQueueSize,
        maxExportBatchSize: Math.min(settings.maxExportBatchSize, settings.maxQueueSize),
        scheduledDelayMillis: settings.scheduledDelayMs,
        exportTimeoutMillis: settings.exportTimeoutMs,
      }),
  );
  const counted = countOperationDurations();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    sampler: samplerOf(settings.sampler),
    spanProcessors: [counted.processor, processor],
  });
  // The one process-wide thing set: the context manager, so that a log line written while a
  // request is served finds its span (the logger's mixin). Off, or `logTraceIds: false`, none is set.
  const contexts =
    settings.logTraceIds && context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  log.info({ url: settings.url, service: settings.serviceName, sampler: settings.sampler }, 'tracing on');
  return {
    tracer: provider.getTracer('boternity'),
    dropped: () => processor.dropped(),
    slowPingMs: settings.slowPingMs,
    durations: counted.durations,
    shutdown: async () => {
      try {
        await provider.shutdown();
      } catch (error) {
        log.warn({ err: error }, 'traces not flushed on stop');
      }
      if (contexts) context.disable();
    },
  };
}

/** The SDK sampler of a setting: parent-based unless `OTEL_TRACES_SAMPLER` said otherwise. */
function samplerOf({ parent, ratio }: SamplerSetting): Sampler {
  const root =
    ratio >= 1 ? new AlwaysOnSampler() : ratio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parent ? new ParentBasedSampler({ root }) : root;
}
