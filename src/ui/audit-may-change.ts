/**
 * Which live events may add audit rows for a bot, so that its tab reads its audit again
 * (issue 18): a state change of one of its servers (a lifecycle row), a tool of one of its
 * servers held or approved, and any event about the bot itself (`event.bot`: its chats,
 * workflows, changes), whatever its type, so new bot events need no change here.
 * @module
 */
import type { LiveEvent } from './api-types.js';

const SERVER_STATES = new Set([
  'connecting',
  'connected',
  'reconnecting',
  'needs_authorization',
  'disabled',
  'removed',
]);
const TOOL_CHANGES = new Set(['tool_quarantined', 'tool_approved']);

/** Whether `event` may have added audit rows for bot `slug`, whose view has `servers`. */
export function auditMayChange(event: LiveEvent, slug: string, servers: readonly string[]): boolean {
  if ((event as { bot?: unknown }).bot === slug) return true;
  const server = (event as { server?: unknown }).server;
  if (typeof server !== 'string' || !servers.includes(server)) return false;
  return SERVER_STATES.has(event.type) || TOOL_CHANGES.has(event.type);
}
