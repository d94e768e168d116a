/**
 * SPEC S5's `tool_call` event: every tool call the audit records (`eventType: "tool_call"`)
 * is published on the bus too, for `/api/events`. Off the call's path: the events of one loop
 * turn are published together once it ends (`setImmediate`), after the answers have left.
 * @module
 */
import type { EventBus } from '../../bus/create-event-bus.js';
import type { HubEvent, ToolCallEvent } from '../../events/hub-event.js';
import type { AuditEntry } from '../../storage/audit-row.js';
import type { AuditSink } from './audit-request.js';

/** `audit`, publishing a `tool_call` event for each tool call it commits. */
export function publishToolCalls(audit: AuditSink, bus: EventBus<HubEvent>): AuditSink {
  let pending: ToolCallEvent[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    for (const event of batch) bus.publish(event);
  };
  const event = (entry: AuditEntry): ToolCallEvent => ({
    type: 'tool_call',
    server: entry.serverName ?? null,
    tool: entry.toolName ?? null,
    bot: entry.botId ?? null,
    client: entry.clientId ?? null,
    success: entry.success,
    durationMs: entry.durationMs ?? null,
    sanitized: entry.sanitized ?? false,
    error: entry.error ?? null,
  });
  return {
    record: (entry) => audit.record(entry),
    commit(entry) {
      audit.commit(entry);
      if (entry.eventType !== 'tool_call') return;
      if (pending.length === 0) setImmediate(flush);
      pending.push(event(entry));
    },
  };
}
