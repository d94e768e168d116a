/**
 * Prometheus metrics (SPEC S8, A5): upstream states and counts read from the hub at
 * scrape time, reconnects, pings and events counted from the bus. One registry per
 * service (no global default registry), so tests and several instances don't collide.
 * prom-client is loaded at the first scrape, not at start (ADR 006): until then the bus
 * is counted in plain maps, handed over when the registry is built. The process metrics
 * that sample over time (event-loop lag, GC) start at that first scrape.
 * @module
 */
import type { Counter, Histogram, Registry } from 'prom-client';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Hub } from '../hub/create-hub.js';
import type { OperationDurations } from '../telemetry/index.js';
import { addAdmissionMetrics, type ServerAdmission } from './add-admission-metrics.js';
import { type AuditFigures, addAuditMetrics } from './add-audit-metrics.js';
import { addOperationDurations, addTraceMetrics } from './add-trace-metrics.js';

const STATES = ['connecting', 'connected', 'reconnecting', 'needs_authorization', 'disabled'] as const;
/** Ping round trips kept for the registry while it does not exist yet (a ping per server every 30 s). */
const MAX_EARLY_PINGS = 10_000;

/** One scrape: the exposition text and its content type. */
export type Scrape = { contentType: string; text: string };

/** The service's metrics; `close()` stops listening to the bus. */
export type Metrics = { scrape(): Promise<Scrape>; close(): void };

type Counted = {
  events: Map<string, number>;
  reconnects: Map<string, number>;
  pings: { server: string; seconds: number }[];
};
type Live = { registry: Registry; events: Counter; reconnects: Counter; pings: Histogram };

/** What the metrics read besides the hub and the bus: the gateway's sessions and buffers (X8). */
export type MetricsDeps = {
  hub: Hub;
  bus: EventBus<HubEvent>;
  /** The live agent sessions, each with where it came in (`/mcp`, `/mcp/servers/x`, `stdio`, `bot:x`). */
  sessions?: () => readonly { readonly label: string }[];
  /** Bytes held by every session's resumption buffer. */
  bufferBytes?: () => number;
  /** SSE streams closed because their client stopped reading, by kind of stream (X8). */
  slowReaders?: () => Readonly<Record<string, number>>;
  /** The audit's size, byte cap and rows dropped by it (issue 17). */
  audit?: AuditFigures;
  /** Each server's requests under the in-flight caps (ADR 022). */
  admission?: () => readonly ServerAdmission[];
  /** Spans dropped so far (tracing on, issue 21). */
  spansDropped?: () => number;
  /** The MCP duration histograms counted from the spans (tracing on, issue 21). */
  operationDurations?: OperationDurations;
};

/** Start counting; the registry comes with the first scrape. */
export function createMetrics({
  hub,
  bus,
  sessions,
  bufferBytes,
  slowReaders,
  audit,
  admission,
  spansDropped,
  operationDurations,
}: MetricsDeps): Metrics {
  const counted: Counted = { events: new Map(), reconnects: new Map(), pings: [] };
  let live: Live | null = null;
  let building: Promise<Live> | null = null;
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  const unsubscribe = bus.subscribe(({ event }) => {
    if (live) {
      live.events.inc({ type: event.type });
      if (event.type === 'reconnecting') live.reconnects.inc({ server: event.server });
      if (event.type === 'health') live.pings.observe({ server: event.server }, event.latencyMs / 1000);
      return;
    }
    add(counted.events, event.type);
    if (event.type === 'reconnecting') add(counted.reconnects, event.server);
    if (event.type === 'health' && counted.pings.length < MAX_EARLY_PINGS)
      counted.pings.push({ server: event.server, seconds: event.latencyMs / 1000 });
  });

  const build = async (): Promise<Live> => {
    const loaded = await import('prom-client');
    // A CommonJS module: bundled, its exports may come as the default export only.
    const prom = 'Registry' in loaded ? loaded : (loaded as unknown as { default: typeof loaded }).default;
    const built = buildRegistry(prom, hub);
    addSessionGauges(prom, built.registry, sessions ?? (() => []), bufferBytes ?? (() => 0));
    if (slowReaders) addSlowReaderCounter(prom, built.registry, slowReaders);
    if (audit) addAuditMetrics(prom, built.registry, audit);
    addAdmissionMetrics(prom, built.registry, admission ?? (() => []));
    if (spansDropped) addTraceMetrics(prom, built.registry, spansDropped);
    if (operationDurations) addOperationDurations(built.registry, operationDurations);
    for (const [type, n] of counted.events) built.events.inc({ type }, n);
    for (const [server, n] of counted.reconnects) built.reconnects.inc({ server }, n);
    for (const { server, seconds } of counted.pings) built.pings.observe({ server }, seconds);
    live = built;
    return built;
  };

  return {
    async scrape() {
      building ??= build();
      const { registry } = await building;
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
    close: unsubscribe,
  };
}

function buildRegistry(prom: typeof import('prom-client'), hub: Hub): Live {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = prom;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'boternity_' });
  new Gauge({
    name: 'boternity_upstream_state',
    help: 'Current state of each upstream server (1 for the state it is in).',
    labelNames: ['server', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of hub.listServers())
        for (const state of STATES) this.set({ server: s.name, state }, s.state === state ? 1 : 0);
    },
  });
  new Gauge({
    name: 'boternity_upstream_catalog_items',
    help: 'Tools, resources and prompts each upstream lists.',
    labelNames: ['server', 'kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of hub.listServers()) {
        this.set({ server: s.name, kind: 'tools' }, s.toolCount);
        this.set({ server: s.name, kind: 'resources' }, s.resourceCount);
        this.set({ server: s.name, kind: 'prompts' }, s.promptCount);
      }
    },
  });
  new Counter({
    name: 'boternity_notifications_dropped_total',
    help: "Notifications dropped over their server's notificationRate, per upstream (since it was configured).",
    labelNames: ['server'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of hub.listServers()) this.inc({ server: s.name }, s.droppedNotifications);
    },
  });
  const reconnects = new Counter({
    name: 'boternity_upstream_reconnects_total',
    help: 'Reconnect attempts scheduled, per upstream.',
    labelNames: ['server'],
    registers: [registry],
  });
  const pings = new Histogram({
    name: 'boternity_upstream_ping_seconds',
    help: 'Health ping round trips, per upstream.',
    labelNames: ['server'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const events = new Counter({
    name: 'boternity_events_total',
    help: 'Events published on the bus, by type.',
    labelNames: ['type'],
    registers: [registry],
  });
  return { registry, events, reconnects, pings };
}

function addSessionGauges(
  prom: typeof import('prom-client'),
  registry: Registry,
  sessions: () => readonly { readonly label: string }[],
  bufferBytes: () => number,
): void {
  new prom.Gauge({
    name: 'boternity_sessions',
    help: 'Live agent sessions, by the endpoint they came in on.',
    labelNames: ['endpoint'],
    registers: [registry],
    collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const { label } of sessions()) counts.set(label, (counts.get(label) ?? 0) + 1);
      for (const [endpoint, n] of counts) this.set({ endpoint }, n);
    },
  });
  new prom.Gauge({
    name: 'boternity_session_buffer_bytes',
    help: 'Bytes of SSE events kept for resumption by every agent session together.',
    registers: [registry],
    collect() {
      this.set(bufferBytes());
    },
  });
}

/** The guard counts; the counter reads its totals at each scrape. */
function addSlowReaderCounter(
  prom: typeof import('prom-client'),
  registry: Registry,
  slowReaders: () => Readonly<Record<string, number>>,
): void {
  new prom.Counter({
    name: 'boternity_sse_streams_closed_slow_reader_total',
    help: 'SSE streams closed because their client left more than http.maxUnsentBytesPerStream unsent, by stream.',
    labelNames: ['stream'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [stream, n] of Object.entries(slowReaders())) this.inc({ stream }, n);
    },
  });
}
