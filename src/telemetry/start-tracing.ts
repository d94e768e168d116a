/**
 * The OpenTelemetry SDK, started by `bnity serve` only when tracing is on (issue 21): the
 * one module that imports the SDK packages; main.ts loads it with a dynamic import, so a
 * service without tracing never loads them. A tracer of lean spans (lean-tracer.ts) with
 * parent-based sampling, a bounded batch processor whose losses are counted, and the OTLP/HTTP export
 * (protobuf, each span encoded as it ends: encoded-batch.ts; or JSON when
 * `OTEL_EXPORTER_OTLP_PROTOCOL` says `http/json`, through the SDK's batch processor). Nothing is
 * registered globally, not even a context manager: the tracer is handed down like any other
 * dependency, and a span's context travels explicitly (ADR 035).
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import {
  type IExportTraceServiceResponse,
  type ISerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
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
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import { countDropped, type ExportHealth } from './count-dropped.js';
import { createSpanEncoder, type SealedSpans } from './encode-spans.js';
import { createEncodedBatch, type EncodedExporter } from './encoded-batch.js';
import { createLeanTracer } from './lean-tracer.js';
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
  const health: ExportHealth = (failing, error) => {
    if (failing)
      log.warn({ err: error, url: settings.url }, 'traces not exported; spans are dropped until the collector answers');
    else log.info({ url: settings.url }, 'traces exported again');
  };
  const bounds = {
    maxQueueSize: settings.maxQueueSize,
    maxExportBatchSize: settings.maxExportBatchSize,
    scheduledDelayMs: settings.scheduledDelayMs,
    exportTimeoutMs: settings.exportTimeoutMs,
  };
  // Protobuf, the default: spans encoded as they end (encoded-batch.ts); JSON, or an
  // exporter a test gives: the SDK's batch processor over span objects.
  const processor =
    !exporter && settings.protocol === 'http/protobuf'
      ? encodedBatch(settings, bounds, health)
      : countDropped(
          exporter ?? new JsonTraceExporter(exporterOptions(settings)),
          settings.maxQueueSize,
          health,
          (counting) =>
            new BatchSpanProcessor(counting, {
              maxQueueSize: bounds.maxQueueSize,
              maxExportBatchSize: Math.min(bounds.maxExportBatchSize, bounds.maxQueueSize),
              scheduledDelayMillis: bounds.scheduledDelayMs,
              exportTimeoutMillis: bounds.exportTimeoutMs,
            }),
        );
  const counted = countOperationDurations();
  const processors = [counted.processor, processor];
  const tracer = createLeanTracer({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    scope: { name: 'boternity' },
    sampler: samplerOf(settings.sampler),
    processors,
  });
  log.info(
    { url: settings.url, protocol: settings.protocol, service: settings.serviceName, sampler: settings.sampler },
    'tracing on',
  );
  return {
    tracer,
    dropped: () => processor.dropped(),
    slowPingMs: settings.slowPingMs,
    durations: counted.durations,
    shutdown: async () => {
      try {
        await Promise.all(processors.map((p) => p.shutdown()));
      } catch (error) {
        log.warn({ err: error }, 'traces not flushed on stop');
      }
    },
  };
}

/** The exporter options of `settings`. */
const exporterOptions = (settings: TracingSettings) => ({
  url: settings.url,
  headers: { ...settings.headers },
  timeoutMillis: settings.exportTimeoutMs,
});

/** Spans encoded as they end, exported as OTLP/HTTP protobuf. */
function encodedBatch(
  settings: TracingSettings,
  bounds: { maxQueueSize: number; maxExportBatchSize: number; scheduledDelayMs: number; exportTimeoutMs: number },
  health: ExportHealth,
) {
  return createEncodedBatch({ ...bounds, builder: createSpanEncoder(), exporter: protobufExporter(settings), health });
}

/**
 * The OTLP/HTTP protobuf export of encoded spans: the SDK's HTTP export delegate (its agent,
 * headers, timeout, retries, response parsing), given a batch as one request of its spans.
 */
function protobufExporter(settings: TracingSettings): EncodedExporter<SealedSpans> {
  const serializer: ISerializer<SealedSpans, IExportTraceServiceResponse> = {
    serializeRequest: (sealed) => sealed.bytes,
    deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
  };
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(exporterOptions(settings), 'TRACES', 'v1/traces', {
      'Content-Type': 'application/x-protobuf',
    }),
    serializer,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (sealed) => sealed.count },
    undefined,
  );
  return new OTLPExporterBase(delegate);
}

/** The SDK sampler of a setting: parent-based unless `OTEL_TRACES_SAMPLER` said otherwise. */
function samplerOf({ parent, ratio }: SamplerSetting): Sampler {
  const root =
    ratio >= 1 ? new AlwaysOnSampler() : ratio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parent ? new ParentBasedSampler({ root }) : root;
}
