import type { AuditEntry } from '../storage/audit-writer.js';
import type { GatewaySession } from './gateway-session.js';

/** Where audit rows go (X7). */
export type AuditSink = { record(entry: AuditEntry): void };

/** What the caller still has to say about a finished agent request. */
export type AuditOutcome = Omit<AuditEntry, 'direction' | 'durationMs' | 'botId' | 'clientId' | 'error'> & {
  error?: unknown;
};

/** Start timing an agent request of `session`; the returned function writes its audit row. */
export function startAudit(audit: AuditSink | undefined, session: GatewaySession): (outcome: AuditOutcome) => void {
  const started = performance.now();
  return ({ error, ...outcome }) =>
    audit?.record({
      direction: 'server',
      botId: session.spec.kind === 'bot' ? session.spec.slug : null,
      clientId: session.clientId,
      durationMs: Math.round(performance.now() - started),
      error: error === undefined || error === null ? null : error instanceof Error ? error.message : String(error),
      ...outcome,
    });
}
