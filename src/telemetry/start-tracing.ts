/**
 * The OpenTelemetry SDK, started by `bnity serve` only when tracing is on (issue 21): the
 * one module that imports the SDK packages; main.ts loads it with a dynamic import, so a
 * service without tracing never loads them. A node tracer provider with parent-based
 * sampling, a bounded batch processor whose losses are counted, and the OTLP/HTTP exporter
 * (protobuf, or JSON when `OTEL_EXPORTER_OTLP_PROTOCOL` says `http/json`). Nothing is
 * registered globally, not even a context manager: the tracer is handed down like any other
 * dependency, and a span's context travels explicitly (ADR 035).
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
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
  if (settings.protocolWarning) log.warn({ url: settings.url }, settings.protocolWarning);
  const processor = countDropped(
    exporter ?? otlpExporter(settings),
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
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    sampler: samplerOf(settings.sampler),
    spanProcessors: [counted.processor, processor],
  });
  log.info(
    { url: settings.url, protocol: settings.protocol, service: settings.serviceName, sampler: settings.sampler },
    'tracing on',
  );
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
    },
  };
}

/** The OTLP/HTTP exporter of `settings.protocol`: protobuf (the default) or JSON. */
function otlpExporter(settings: TracingSettings): SpanExporter {
  const options = { url: settings.url, headers: { ...settings.headers }, timeoutMillis: settings.exportTimeoutMs };
  return settings.protocol === 'http/json' ? new JsonTraceExporter(options) : new OTLPTraceExporter(options);
}

/** The SDK sampler of a setting: parent-based unless `OTEL_TRACES_SAMPLER` said otherwise. */
function samplerOf({ parent, ratio }: SamplerSetting): Sampler {
  const root =
    ratio >= 1 ? new AlwaysOnSampler() : ratio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parent ? new ParentBasedSampler({ root }) : root;
}
