/**
 * The audit row of one MCP event on the gateway (X7), built from its outcome once the
 * event is over: who (the session's client and bot), what, how long, and how it ended.
 * @module
 */
import { type AuditEntry, boundName } from '../../storage/audit-writer.js';
import type { AgentSession } from './agent-session.js';

/**
 * Where audit rows go (X7). `commit` is for the row of a request an agent is answered:
 * it returns once the row would survive a kill of the process, so it is called before the
 * answer is returned (issue 17). `record` is for the rest (notifications, lifecycle).
 */
export type AuditSink = { record(entry: AuditEntry): void; commit(entry: AuditEntry): void };

/** What the event says about itself; `error` is whatever failed it (its message is kept). */
export type AuditFields = Omit<
  AuditEntry,
  'direction' | 'durationMs' | 'botId' | 'clientId' | 'clientName' | 'error' | 'success'
> & {
  error?: unknown;
  /** Defaults to "no error". */
  success?: boolean;
};

/**
 * How the audit names an MCP client from its `clientInfo`: `name/version` (the name alone
 * without a version), bounded already, so a session never holds a huge name for its life.
 */
export function clientNameOf(info: { name: string; version?: string } | null | undefined): string | null {
  if (!info) return null;
  return boundName(info.version ? `${info.name}/${info.version}` : info.name);
}

/** The row of an event of `session` (null: none known) that began at `started` (`performance.now()`; null: instant). */
export function auditRow(
  direction: AuditEntry['direction'],
  session: AgentSession | null,
  started: number | null,
  { error, success, ...fields }: AuditFields,
): AuditEntry {
  const failed = error !== undefined && error !== null;
  return {
    direction,
    botId: session?.bot ?? null,
    clientId: session?.clientId ?? null,
    clientName: session?.clientName ?? null,
    ...(started === null ? {} : { durationMs: Math.round(performance.now() - started) }),
    success: success ?? !failed,
    error: !failed ? null : error instanceof Error ? error.message : String(error),
    ...fields,
  };
}
