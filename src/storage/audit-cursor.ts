/**
 * The audit's paging cursor (`GET /api/audit?before=`): the place of the last row of a page
 * in the log's order (timestamp, then id, both descending), as `<epoch ms>.<id>`. A cursor
 * names a place, not a row: the row may be pruned meanwhile and the next page still starts
 * right after it, with no row seen twice and none skipped.
 * @module
 */

/** Where a page ended. */
export type AuditCursor = { readonly at: Date; readonly id: string };

/** The cursor after `row`. */
export function auditCursorOf(row: { timestamp: string; id: string }): string {
  return `${Date.parse(row.timestamp)}.${row.id}`;
}

/** The place `text` names, or null when it is not a cursor this module wrote. */
export function readAuditCursor(text: string): AuditCursor | null {
  const match = /^(\d{1,15})\.([0-9A-Za-z-]{1,64})$/.exec(text);
  if (!match) return null;
  const at = new Date(Number(match[1]));
  return Number.isNaN(at.getTime()) ? null : { at, id: match[2] as string };
}
