/**
 * The audit of notifications no agent receives (X7, issue 17): an upstream's logging
 * messages with no call to tie them to, and resource updates nobody subscribed to, are
 * counted rather than written one row each. One row per server and event type is written
 * for each window in which some came, when the window closes (and at `close()`), with
 * the count in its `count` column; `durationMs` says how long the window was.
 * @module
 */
import type { AuditSink } from '../session/index.js';
import { auditRow } from '../session/index.js';

/** The event types counted. */
export type UndeliveredEvent = 'logging_message' | 'resource_updated';

/** Counts per server and type; `close()` writes what is counted. */
export type UndeliveredTally = {
  count(server: string, eventType: UndeliveredEvent): void;
  close(): void;
};

/** Options of {@link createUndeliveredTally}; `setTimer` returns a canceller, `now` is in ms. */
export type UndeliveredTallyOptions = {
  audit: Pick<AuditSink, 'record'>;
  /** How long a window lasts (read at the start of each). */
  windowMs: () => number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => () => void;
};

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Start counting; the first count opens a window. */
export function createUndeliveredTally({
  audit,
  windowMs,
  now = Date.now,
  setTimer = realTimer,
}: UndeliveredTallyOptions): UndeliveredTally {
  let counts = new Map<string, { server: string; eventType: UndeliveredEvent; count: number }>();
  let openedAt = 0;
  let cancel: (() => void) | null = null;

  const write = () => {
    cancel = null;
    const at = now();
    for (const { server, eventType, count } of counts.values()) {
      audit.record({
        ...auditRow('client', null, null, {
          eventType,
          serverName: server,
          input: { undelivered: count, from: new Date(openedAt).toISOString() },
        }),
        count,
        durationMs: at - openedAt,
        at: new Date(at),
      });
    }
    counts = new Map();
  };

  return {
    count(server, eventType) {
      const key = `${eventType}\u0000${server}`;
      const entry = counts.get(key);
      if (entry) entry.count += 1;
      else counts.set(key, { server, eventType, count: 1 });
      if (!cancel) {
        openedAt = now();
        cancel = setTimer(write, windowMs());
      }
    },
    close() {
      cancel?.();
      write();
    },
  };
}
