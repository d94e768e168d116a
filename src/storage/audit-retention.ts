/**
 * Audit housekeeping (SPEC X7): rows older than `audit.retentionDays` are pruned at start
 * and then every hour, and the byte cap checked then too (issue 17; it is also checked as
 * rows come in); bus events that are security facts become audit rows too. With replicas
 * sharing a database, only the leader of the run-once jobs prunes (ADR 041), and a replica
 * that becomes the leader prunes at once.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { HubEvent } from '../events/hub-event.js';
import type { AuditCap } from './audit-cap.js';
import { pruneAudit } from './audit-query.js';
import type { AuditWriter } from './audit-writer.js';
import type { Db } from './create-db.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether this process leads the run-once jobs (ADR 041); absent: it does. */
export type RunOnceLeader = { isLeader(): boolean; onChange(listener: (leader: boolean) => void): () => void };

/**
 * Prune now and every hour, in bounded batches through the writer's `cap` when there is one
 * (then check the byte cap too), while `leader` leads; returns what stops it.
 */
export function startAuditRetention({
  db,
  cap,
  days,
  log,
  leader,
}: {
  db: Db;
  cap: AuditCap | null;
  days: () => number;
  log: Logger;
  leader?: RunOnceLeader;
}): () => void {
  const prune = () => {
    if (leader && !leader.isLeader()) return;
    const olderThan = new Date(Date.now() - days() * DAY_MS);
    void (cap ? cap.prune(olderThan) : pruneAudit(db, olderThan))
      .then(async (removed) => {
        if (removed > 0) log.info({ removed }, 'pruned audit rows past their retention');
        await cap?.enforce();
      })
      .catch((error: unknown) => log.warn({ err: error }, 'audit pruning failed'));
  };
  prune();
  const timer = setInterval(prune, 60 * 60 * 1000);
  timer.unref();
  const unfollow = leader?.onChange((leads) => leads && prune());
  return () => {
    clearInterval(timer);
    unfollow?.();
  };
}

/** Record quarantines and approvals (X5) as audit rows; returns the unsubscribe. */
export function auditBusEvents(bus: EventBus<HubEvent>, audit: Pick<AuditWriter, 'record'>): () => void {
  return bus.subscribeTo(['tool_quarantined', 'tool_approved'], ({ event, at }) => {
    // One row per quarantine or approval in a fleet: the replica that saw it writes it, not those told of it.
    if (event.relayedFrom === undefined) {
      audit.record({
        direction: 'client',
        eventType: event.type,
        serverName: event.server,
        toolName: event.tool,
        input: event,
        success: event.type === 'tool_approved',
        at: new Date(at),
      });
    }
  });
}
