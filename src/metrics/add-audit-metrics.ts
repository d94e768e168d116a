/**
 * The audit's metrics (issue 17): its size on disk against its byte cap, and the rows the
 * cap has deleted, read from the audit's own figures at scrape time.
 * @module
 */
import type { Registry } from 'prom-client';

/** What the audit tells about its size (the writer's byte cap keeps these). */
export type AuditFigures = () => { bytes: number | null; maxBytes: number; droppedRows: number };

/** Register the audit's gauges and counter on `registry`. */
export function addAuditMetrics(prom: typeof import('prom-client'), registry: Registry, audit: AuditFigures): void {
  new prom.Gauge({
    name: 'boternity_audit_bytes',
    help: "Bytes the audit's table and indexes take in the database, at the last check.",
    registers: [registry],
    collect() {
      const { bytes } = audit();
      if (bytes !== null) this.set(bytes);
    },
  });
  new prom.Gauge({
    name: 'boternity_audit_max_bytes',
    help: "The audit's byte cap (audit.maxBytes).",
    registers: [registry],
    collect() {
      this.set(audit().maxBytes);
    },
  });
  new prom.Counter({
    name: 'boternity_audit_rows_dropped_total',
    help: 'Audit rows deleted, oldest first, to keep the audit under its byte cap.',
    registers: [registry],
    collect() {
      // The cap counts; the counter shows its total.
      this.reset();
      this.inc(audit().droppedRows);
    },
  });
}
