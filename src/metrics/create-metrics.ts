/**
 * Prometheus metrics (SPEC S8, A5): upstream states and counts read from the hub at
 * scrape time, reconnects, pings and events counted from the bus. One registry per
 * service (no global default registry), so tests and several instances don't collide.
 * @module
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Hub } from '../hub/create-hub.js';

const STATES = ['connecting', 'connected', 'reconnecting', 'disabled'] as const;

/** The service's metrics; `close()` stops listening to the bus. */
export type Metrics = { registry: Registry; close(): void };

/** Create the registry and start counting. */
export function createMetrics({ hub, bus }: { hub: Hub; bus: EventBus<HubEvent> }): Metrics {
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

  const unsubscribe = bus.subscribe(({ event }) => {
    events.inc({ type: event.type });
    if (event.type === 'reconnecting') reconnects.inc({ server: event.server });
    if (event.type === 'health') pings.observe({ server: event.server }, event.latencyMs / 1000);
  });
  return { registry, close: unsubscribe };
}
