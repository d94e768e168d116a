/**
 * What tracing is set to, from the `telemetry` section and the standard OpenTelemetry
 * environment variables, which win (issue 21): `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`,
 * `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`, `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS`,
 * `OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT`, `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`,
 * `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER(_ARG)`, `OTEL_BSP_*`. Pure: the SDK is loaded only once this says tracing is on.
 * @module
 */
import type { Telemetry } from '../config/telemetry-schema.js';

/** How new traces are sampled; `parent`: a caller's decision is followed (parent-based). */
export type SamplerSetting = { readonly parent: boolean; readonly ratio: number };

/** The OTLP encodings over HTTP the service sends (gRPC is not one: ADR 035). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Everything the SDK is started with. */
export type TracingSettings = {
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Set when the protocol asked for is not one we send (`grpc`, a typo): the one line to log. */
  readonly protocolWarning: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly sampler: SamplerSetting;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  readonly scheduledDelayMs: number;
  readonly exportTimeoutMs: number;
  readonly slowPingMs: number;
};

const DEFAULT_ENDPOINT = 'http://localhost:4318';

/** The settings tracing runs with, or null when it is off. */
export function tracingSettings(telemetry: Telemetry, env: NodeJS.ProcessEnv): TracingSettings | null {
  if (!isOn(telemetry.enabled, env)) return null;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT || telemetry.endpoint || DEFAULT_ENDPOINT;
  const { protocol, protocolWarning } = protocolOf(env, telemetry.protocol);
  return {
    // The signal-specific endpoint is used as it is; the general one gets the traces path.
    url: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${base.replace(/\/+$/, '')}/v1/traces`,
    protocol,
    protocolWarning,
    headers: {
      ...telemetry.headers,
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    serviceName: env.OTEL_SERVICE_NAME || telemetry.serviceName,
    sampler: samplerOf(env, telemetry.sampleRatio),
    maxQueueSize: positive(env.OTEL_BSP_MAX_QUEUE_SIZE) ?? telemetry.maxQueueSize,
    maxExportBatchSize: positive(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE) ?? telemetry.maxExportBatchSize,
    scheduledDelayMs: positive(env.OTEL_BSP_SCHEDULE_DELAY) ?? telemetry.scheduledDelayMs,
    exportTimeoutMs:
      positive(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ??
      positive(env.OTEL_EXPORTER_OTLP_TIMEOUT) ??
      telemetry.exportTimeoutMs,
    slowPingMs: telemetry.slowPingMs,
  };
}

/**
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else the config's.
 * `grpc` (or anything else) is not sent: tracing stays on with protobuf over HTTP, and says so.
 */
function protocolOf(
  env: NodeJS.ProcessEnv,
  configured: OtlpProtocol,
): Pick<TracingSettings, 'protocol' | 'protocolWarning'> {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const asked = env[name]?.trim().toLowerCase();
  if (!asked) return { protocol: configured, protocolWarning: null };
  if (asked === 'http/protobuf' || asked === 'http/json') return { protocol: asked, protocolWarning: null };
  return {
    protocol: 'http/protobuf',
    protocolWarning: `${name}=${asked.slice(0, 40)} is not supported (only http/protobuf and http/json): traces are sent as http/protobuf`,
  };
}

/** The standard variables whose presence turns tracing on (SPEC §7) when the config does not say. */
const TURNING_ON = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER',
] as const;

/**
 * On or off: `OTEL_SDK_DISABLED=true` and `OTEL_TRACES_EXPORTER=none` turn it off and
 * `OTEL_TRACES_EXPORTER=otlp` on, whatever the config says; then the config's `enabled` when
 * written; unwritten, on when a collector's endpoint, a service name or a sampler is given in
 * the environment (the contract's "the standard variables turn on OTLP/HTTP export").
 */
function isOn(enabled: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return false;
  if (exporter === 'otlp') return true;
  if (enabled !== undefined) return enabled;
  return TURNING_ON.some((name) => Boolean(env[name]?.trim()));
}

/** `k=v,k2=v2`, values URL-encoded (the OTLP exporter's format); a malformed pair is skipped. */
function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of text?.split(',') ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // Not URL-decodable: skipped, as the SDK does.
    }
  }
  return headers;
}

/** `OTEL_TRACES_SAMPLER` (`always_on`, `traceidratio`, `parentbased_*`) and its argument, else the config's ratio. */
function samplerOf(env: NodeJS.ProcessEnv, ratio: number): SamplerSetting {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const given = Number.isFinite(arg) && arg >= 0 && arg <= 1 && env.OTEL_TRACES_SAMPLER_ARG !== '' ? arg : 1;
  switch (name) {
    case 'always_on':
      return { parent: false, ratio: 1 };
    case 'always_off':
      return { parent: false, ratio: 0 };
    case 'traceidratio':
      return { parent: false, ratio: given };
    case 'parentbased_always_on':
      return { parent: true, ratio: 1 };
    case 'parentbased_always_off':
      return { parent: true, ratio: 0 };
    case 'parentbased_traceidratio':
      return { parent: true, ratio: given };
    default:
      return { parent: true, ratio };
  }
}

/** A positive integer from the environment, or undefined. */
function positive(text: string | undefined): number | undefined {
  const value = Number(text);
  return text && Number.isInteger(value) && value > 0 ? value : undefined;
}
