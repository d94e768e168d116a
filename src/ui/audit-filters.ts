/**
 * The audit page's filters as the URL keeps them (`#/audit?server=fs&event=tool_call`) and
 * as `GET /api/audit` takes them, the values the drop-downs offer, and which rows are the
 * web UI's own test calls.
 * @module
 */
import type { AuditEntry, AuditQuery } from './api-types.js';

/** The query parameters the page keeps in the URL and passes on to the API. */
export const AUDIT_FILTERS = [
  'server',
  'bot',
  'client',
  'clientName',
  'direction',
  'event',
  'tool',
  'success',
  'since',
  'until',
  'limit',
] as const;

/** A filter's name. */
export type AuditFilter = (typeof AUDIT_FILTERS)[number];

/** The rows per page unless the URL says otherwise. */
export const DEFAULT_LIMIT = '100';

/** The `clientName` the service gives the test calls made from this UI (`src/http/test-call-client.ts`). */
export const UI_TEST_CLIENT = 'boternity-ui';

/** Every `eventType` the audit writes (docs/api.md, Audit). */
export const AUDIT_EVENTS = [
  'tool_call',
  'resource_read',
  'resource_subscribe',
  'resource_unsubscribe',
  'prompt_get',
  'completion',
  'tools_list',
  'resources_list',
  'resource_templates_list',
  'prompts_list',
  'session_start',
  'session_end',
  'ping',
  'set_level',
  'roots_list_changed',
  'sampling_request',
  'elicitation_request',
  'roots_request',
  'logging_message',
  'resource_updated',
  'tool_quarantined',
  'tool_approved',
  'catalog_churn',
  'server_connected',
  'server_disconnected',
  'server_reconnect_scheduled',
  'server_disabled',
] as const;

/** The API's query for the URL's: its filters, the page's cursor (`before`), the default limit. */
export function auditQueryOf(url: Readonly<Record<string, string>>): AuditQuery {
  const query: Record<string, string> = { limit: DEFAULT_LIMIT };
  for (const key of [...AUDIT_FILTERS, 'before']) if (url[key]) query[key] = url[key];
  return query as AuditQuery;
}

/** Whether `entry` is a test call made from this UI (as opposed to an agent's or the CLI's). */
export const isUiTestCall = (entry: AuditEntry) => entry.clientId === 'admin' && entry.clientName === UI_TEST_CLIENT;

/** An instant of the URL (ISO 8601) as a `datetime-local` value, in this browser's zone. */
export function toLocalInput(iso: string | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value as ISO 8601 for the URL and the API (empty: none). */
export function fromLocalInput(local: string): string {
  const date = local ? new Date(local) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
}
