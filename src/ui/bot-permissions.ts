/**
 * Whether a bot's view lets it use a tool, and the edit that switches it (SPEC B2, G3).
 * `toolPermissions.{server}`: `denied` always wins; an `allowed` list, once there, is the
 * only tools of that server the bot sees. Switching a tool off denies it; switching it on
 * allows it where an `allowed` list exists, and otherwise only takes it out of `denied`
 * (allowing it there would create a list that hides every other tool). Pure.
 * @module
 */
import type { BotView, BotViewInput, PermissionEdit } from './api-types.js';

/** What to send: a `PATCH …/permissions/{server}` body, or a whole view for `PUT …/overrides`. */
export type PermissionChange = { kind: 'patch'; edit: PermissionEdit } | { kind: 'replace'; view: BotViewInput };

/** Whether the bot may use `tool` of `server`. */
export function isToolAllowed(view: BotView | null, server: string, tool: string): boolean {
  const lists = view?.toolPermissions[server];
  if (!lists) return true;
  if (lists.denied?.includes(tool)) return false;
  return lists.allowed === undefined || lists.allowed.includes(tool);
}

/** The change that makes `tool` of `server` allowed (`allow`) or not. */
export function permissionChange(view: BotView | null, server: string, tool: string, allow: boolean): PermissionChange {
  if (!allow) return { kind: 'patch', edit: { deny: [tool] } };
  const lists = view?.toolPermissions[server];
  if (lists?.allowed !== undefined) return { kind: 'patch', edit: { allow: [tool] } };
  const denied = (lists?.denied ?? []).filter((name) => name !== tool);
  const { [server]: _old, ...others } = view?.toolPermissions ?? {};
  return {
    kind: 'replace',
    view: {
      additionalServers: [...(view?.additionalServers ?? [])],
      removedServers: [...(view?.removedServers ?? [])],
      toolPermissions: denied.length > 0 ? { ...others, [server]: { denied } } : others,
    },
  };
}
