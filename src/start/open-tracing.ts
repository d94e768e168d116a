/**
 * Traces at start (issue 21): the SDK is loaded by a dynamic import only when the config's
 * `telemetry` section or the `OTEL_*` environment turn them on, so a service without
 * tracing neither loads nor pays for it.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { AppConfig } from '../config/schema.js';
import type { Telemetry } from '../config/telemetry-schema.js';
import type { HubEvent } from '../events/hub-event.js';
import { configApplySpan, traceServerEvents } from '../hub/trace-server-events.js';
import { tracingSettings } from '../telemetry/index.js';
import type { Tracing } from '../telemetry/start-tracing.js';

/** The running tracing, or null when it is off. */
export async function openTracing(telemetry: Telemetry, env: NodeJS.ProcessEnv, log: Logger): Promise<Tracing | null> {
  const settings = tracingSettings(telemetry, env);
  if (!settings) return null;
  return (await import('../telemetry/start-tracing.js')).startTracing(settings, { log: log.child({ mod: 'traces' }) });
}

/** Lifecycle spans from the servers' events on `bus` (tracing on); returns the function that stops them. */
export function followServers(tracing: Tracing | null, bus: EventBus<HubEvent>, config: () => AppConfig): () => void {
  if (!tracing) return () => undefined;
  return traceServerEvents({ bus, tracer: tracing.tracer, config });
}

/**
 * Run `apply`, the first apply of `config` at start (every server added), as a
 * `boternity.config.apply` span (tracing on): the hub publishes `config_applied` for the
 * later ones only, which its listeners take as a change.
 */
export function applyFirst(tracing: Tracing | null, config: AppConfig, file: string | null, apply: () => void): void {
  if (!tracing) {
    apply();
    return;
  }
  const added = Object.keys(config.mcpServers);
  const span = configApplySpan(tracing.tracer, { file, added, removed: [], changed: [], first: true });
  try {
    apply();
  } finally {
    span.end();
  }
}
