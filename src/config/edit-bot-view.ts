/**
 * Edits of a bot's view in the config file (SPEC B2, C1 `bots.{slug}`), as pure functions of
 * the raw entry: the API and the CLI apply them inside one config edit, so the rest of the
 * entry (its `name`, `description`, unknown keys) stays as written.
 * @module
 */
import { HubError } from '../errors.js';
import { isJsonObject } from './json-object.js';

type Entry = Record<string, unknown>;

/** One change to a bot's view. */
export type BotViewChange =
  | { kind: 'add-server'; server: string }
  | { kind: 'remove-server'; server: string }
  | { kind: 'allow'; server: string; tools: readonly string[] }
  | { kind: 'deny'; server: string; tools: readonly string[] }
  | { kind: 'clear-permissions'; server: string };

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const without = (list: string[], drop: readonly string[]) => list.filter((v) => !drop.includes(v));
const withAll = (list: string[], add: readonly string[]) => [...list, ...add.filter((v) => !list.includes(v))];

/** Set `key` of `entry`, dropping it when the list is empty (the file stays as short as it was). */
function put(entry: Entry, key: string, list: string[]): Entry {
  const { [key]: _old, ...rest } = entry;
  return list.length > 0 ? { ...rest, [key]: list } : rest;
}

/**
 * `entry` (undefined: no view yet) with `change` made. Adding a server puts it in
 * `additionalServers` and takes it out of `removedServers`, removing does the reverse;
 * allowing tools adds them to the server's `allowed` list and takes them out of `denied`,
 * denying does the reverse.
 */
export function editBotView(entry: Entry | undefined, change: BotViewChange): Entry {
  const view: Entry = entry ?? {};
  switch (change.kind) {
    case 'add-server':
      return put(
        put(view, 'removedServers', without(strings(view.removedServers), [change.server])),
        'additionalServers',
        withAll(strings(view.additionalServers), [change.server]),
      );
    case 'remove-server':
      return put(
        put(view, 'additionalServers', without(strings(view.additionalServers), [change.server])),
        'removedServers',
        withAll(strings(view.removedServers), [change.server]),
      );
    case 'allow':
    case 'deny': {
      const all = isJsonObject(view.toolPermissions) ? view.toolPermissions : {};
      const current = isJsonObject(all[change.server]) ? (all[change.server] as Entry) : {};
      const [grow, shrink] = change.kind === 'allow' ? ['allowed', 'denied'] : ['denied', 'allowed'];
      const next = put(
        put(current, shrink, without(strings(current[shrink]), change.tools)),
        grow,
        withAll(strings(current[grow]), change.tools),
      );
      return { ...view, toolPermissions: { ...all, [change.server]: next } };
    }
    case 'clear-permissions': {
      const all = isJsonObject(view.toolPermissions) ? view.toolPermissions : {};
      const { [change.server]: _gone, ...rest } = all;
      return { ...view, toolPermissions: rest };
    }
  }
}

/** Throw unless every server the view names is configured (a typo would otherwise be ignored silently). */
export function requireConfiguredServers(
  servers: readonly string[],
  configured: Readonly<Record<string, unknown>>,
  field: string,
): void {
  const unknown = servers.filter((s) => !Object.hasOwn(configured, s));
  if (unknown.length > 0)
    throw new HubError(
      'bad_request',
      `${field}: server ${unknown.map((s) => `"${s}"`).join(', ')} is not configured (bnity mcp list shows the servers)`,
    );
}
