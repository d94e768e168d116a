/**
 * Traces at start (issue 21): the SDK is loaded by a dynamic import only when the config's
 * `telemetry` section or the `OTEL_*` environment turn them on, so a service without
 * tracing neither loads nor pays for it.
 * @module
 */
import type { Logger } from 'pino';
import type { Telemetry } from '../config/telemetry-schema.js';
import { tracingSettings } from '../telemetry/index.js';
import type { Tracing } from '../telemetry/start-tracing.js';

/** The running tracing, or null when it is off. */
export async function openTracing(telemetry: Telemetry, env: NodeJS.ProcessEnv, log: Logger): Promise<Tracing | null> {
  const settings = tracingSettings(telemetry, env);
  if (!settings) return null;
  return (await import('../telemetry/start-tracing.js')).startTracing(settings, { log: log.child({ mod: 'traces' }) });
}
