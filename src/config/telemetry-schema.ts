/**
 * The `telemetry` section (issue 21): OpenTelemetry traces sent over OTLP/HTTP (protobuf).
 * Off by default. The standard `OTEL_*` environment variables win over what is written here
 * (src/telemetry/tracing-settings.ts reads both). Read at start.
 * @module
 */
import { z } from 'zod';

/** Where and how spans are exported; the queue is bounded so a slow collector never slows a call. */
export const TelemetrySchema = z
  .object({
    /**
     * Send traces. Unset: off unless the standard variables turn them on (SPEC §7: an
     * `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`, `OTEL_SERVICE_NAME` or `OTEL_TRACES_SAMPLER`);
     * `false` keeps them off but for `OTEL_TRACES_EXPORTER=otlp`. `OTEL_SDK_DISABLED=true` or
     * `OTEL_TRACES_EXPORTER=none` turn them off whatever this says.
     */
    enabled: z.boolean().optional(),
    /** The collector's base URL (`/v1/traces` is added), as `OTEL_EXPORTER_OTLP_ENDPOINT`; default `http://localhost:4318`. */
    endpoint: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    /** The OTLP encoding over HTTP, as `OTEL_EXPORTER_OTLP_PROTOCOL` (`grpc` is not supported). */
    protocol: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
    /** Headers of each export (e.g. an API key: write `${env:VAR}`), as `OTEL_EXPORTER_OTLP_HEADERS`. */
    headers: z.record(z.string().min(1), z.string()).default({}),
    /** `service.name` of every span, as `OTEL_SERVICE_NAME`. */
    serviceName: z.string().min(1).default('boternity'),
    /** The share of new traces sampled (parent-based: a sampled caller's trace is always continued). */
    sampleRatio: z.number().min(0).max(1).default(1),
    /** Spans waiting for export at most; more are dropped and counted in `/metrics`. */
    maxQueueSize: z.number().int().positive().default(2048),
    maxExportBatchSize: z.number().int().positive().default(512),
    /** How long spans wait to be exported in a batch. */
    scheduledDelayMs: z.number().int().positive().default(5_000),
    /** One export's time limit, as `OTEL_EXPORTER_OTLP_TIMEOUT`. */
    exportTimeoutMs: z.number().int().positive().default(10_000),
    /** A health ping slower than this gets a span (a failed one always does). */
    slowPingMs: z.number().int().positive().default(1_000),
    /**
     * The lines logged about a request carry its `trace_id`/`span_id` (passed explicitly: no
     * context manager, ADR 035); `false` leaves them out. Read when a line is written.
     */
    logTraceIds: z.boolean().default(true),
  })
  .strict();
export type Telemetry = z.infer<typeof TelemetrySchema>;
