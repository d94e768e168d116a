/**
 * Which upstream tools a view may list and call (SPEC G3, C1 `allowedTools`/`deniedTools`,
 * B2 `toolPermissions`). Names are the upstream's own tool names, not public names.
 *
 * A tool passes when it is in neither deny list, and in every allow list that is set (an empty
 * allow list allows nothing). Deny always wins over allow.
 * @module
 */
import type { ServerConfig } from '../../config/schema.js';

/** A bot's allow/deny lists for one server (`bots.{slug}.toolPermissions.{server}`). */
export type ToolPermission = { readonly allowed?: readonly string[]; readonly denied?: readonly string[] };

/** The server-level lists of a server entry. */
export type ServerToolLists = Pick<ServerConfig, 'allowedTools' | 'deniedTools'>;

/** True when `tool` of this server may be listed and called in a view with `permission`. */
export function isToolAllowed(tool: string, server: ServerToolLists, permission?: ToolPermission): boolean {
  if (server.deniedTools?.includes(tool) || permission?.denied?.includes(tool)) return false;
  if (server.allowedTools && !server.allowedTools.includes(tool)) return false;
  if (permission?.allowed && !permission.allowed.includes(tool)) return false;
  return true;
}
