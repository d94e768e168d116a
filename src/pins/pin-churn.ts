/**
 * Catalog churn (SPEC X5): a server whose tools change more than `pins.churnMaxChanges`
 * times in `pins.churnWindowMs` stops costing one `tool_quarantined` event, audit row and
 * log line per change. `catalog_churn` is published (and audited, and logged) when the
 * churn begins and then once per window with the counts, until a window passes with at most
 * `churnMaxChanges` changes (`churning: false`). The counting is `guard/churn-window.ts`.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { CatalogChurnEvent, HubEvent } from '../events/hub-event.js';
import { type ChurnLimits, type ChurnSummary, type ChurnWindow, createChurnWindow } from '../guard/churn-window.js';
import type { AuditWriter } from '../storage/audit-writer.js';

/** What the churn counter needs. */
export type PinChurnDeps = {
  bus: EventBus<HubEvent>;
  log: Logger;
  /** Where the summary rows go (one per `catalog_churn` event); none without it. */
  audit?: Pick<AuditWriter, 'record'> | undefined;
  /** Read at each change, so a config reload applies at once. */
  limits: () => ChurnLimits;
  /** Called when a server stops churning, to bring its pins up to date. */
  onSettled: (server: string) => void;
};

/** The churn counters of every server. */
export type PinChurn = {
  /** Count one change of `server`'s tools; false when it is to be summarized, not reported. */
  note(server: string, now: number): boolean;
  /** Close the windows that are over (at most `pins.churnWindowMs` late when called that often). */
  roll(now: number): void;
  churning(server: string): boolean;
  /** Forget a server's counter (its pins are gone). */
  forget(server: string): void;
};

/** Create the counters. */
export function createPinChurn({ bus, log, audit, limits, onSettled }: PinChurnDeps): PinChurn {
  const windows = new Map<string, ChurnWindow>();

  const report = (server: string, summary: Omit<CatalogChurnEvent, 'type' | 'server'>, at: number) => {
    const event: CatalogChurnEvent = { type: 'catalog_churn', server, ...summary };
    const what = `${summary.changes} tool changes in a window of ${summary.windowMs} ms, ${summary.summarized} summarized here instead of reported one by one`;
    if (summary.churning)
      log.warn({ server, ...summary }, 'tool catalog churning: quarantine events summarized per window');
    else log.info({ server, ...summary }, 'tool catalog settled: quarantine events reported one by one again');
    bus.publish(event);
    audit?.record({
      direction: 'client',
      eventType: 'catalog_churn',
      serverName: server,
      input: event,
      success: !summary.churning,
      error: summary.churning ? `catalog churning: ${what}` : `catalog settled: ${what}`,
      at: new Date(at),
    });
  };

  const summarize = (server: string, window: ChurnWindow, closed: ChurnSummary, at: number) => {
    report(
      server,
      {
        churning: closed.churning,
        changes: closed.changes,
        summarized: closed.suppressed,
        windowMs: closed.windowMs,
        since: closed.churning ? new Date(window.since() ?? at).toISOString() : null,
      },
      at,
    );
    if (!closed.churning) onSettled(server);
  };

  return {
    note(server, now) {
      let window = windows.get(server);
      if (!window) {
        window = createChurnWindow(now);
        windows.set(server, window);
      }
      const current = limits();
      const verdict = window.note(now, current);
      if (verdict.closed) summarize(server, window, verdict.closed, now);
      if (verdict.began)
        report(
          server,
          {
            churning: true,
            changes: window.changes(),
            summarized: 1,
            windowMs: current.windowMs,
            since: new Date(now).toISOString(),
          },
          now,
        );
      return verdict.report;
    },
    roll(now) {
      const current = limits();
      for (const [server, window] of [...windows]) {
        const closed = window.roll(now, current);
        if (closed) summarize(server, window, closed, now);
        // A calm server's counter goes once its window is over: nothing is kept per quiet server.
        if (!window.churning() && window.changes() === 0) windows.delete(server);
      }
    },
    churning: (server) => windows.get(server)?.churning() ?? false,
    forget: (server) => void windows.delete(server),
  };
}
