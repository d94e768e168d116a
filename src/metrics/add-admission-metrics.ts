/**
 * The in-flight caps' metrics (issue 17, ADR 022): each upstream's requests in flight and
 * waiting now, and those that waited, how long, and those refused, since start.
 * @module
 */
import type { Registry } from 'prom-client';

/** One server's requests under the in-flight caps: now, and counted since start. */
export type ServerAdmission = {
  readonly server: string;
  readonly inFlight: number;
  readonly waiting: number;
  readonly waited: number;
  readonly waitSeconds: number;
  readonly refused: number;
  readonly timedOut: number;
};

/** Register the in-flight caps' gauges and counters (ADR 022), read from the gateway at scrape time. */
export function addAdmissionMetrics(
  prom: typeof import('prom-client'),
  registry: Registry,
  admission: () => readonly ServerAdmission[],
): void {
  const perServer = (
    Kind: typeof prom.Gauge | typeof prom.Counter,
    name: string,
    help: string,
    value: (s: ServerAdmission) => number,
  ) =>
    new Kind({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      collect() {
        this.reset();
        for (const s of admission()) this.inc({ server: s.server }, value(s));
      },
    });
  perServer(
    prom.Gauge,
    'boternity_upstream_requests_in_flight',
    'Requests relayed to each upstream now.',
    (s) => s.inFlight,
  );
  perServer(
    prom.Gauge,
    'boternity_upstream_requests_waiting',
    'Requests waiting for a place under an in-flight cap now, per upstream.',
    (s) => s.waiting,
  );
  perServer(
    prom.Counter,
    'boternity_upstream_requests_waited_total',
    'Requests that waited for a place under an in-flight cap, per upstream.',
    (s) => s.waited,
  );
  perServer(
    prom.Counter,
    'boternity_upstream_queue_wait_seconds_total',
    'Time requests waited for a place under an in-flight cap, in all, per upstream.',
    (s) => s.waitSeconds,
  );
  new prom.Counter({
    name: 'boternity_upstream_requests_refused_total',
    help: 'Requests refused by an in-flight cap, per upstream: queue_full (refused at once), wait_timeout (waited their whole requestTimeoutMs).',
    labelNames: ['server', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of admission()) {
        this.inc({ server: s.server, reason: 'queue_full' }, s.refused);
        this.inc({ server: s.server, reason: 'wait_timeout' }, s.timedOut);
      }
    },
  });
}
