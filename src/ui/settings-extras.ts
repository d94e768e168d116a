/**
 * The settings form's values for a server entry's `timeouts` (SPEC D2), `toolOverrides`
 * (D3) and `oauth` client (issue 23), and the `PATCH` fields their changes make: each group
 * is sent whole once one of its fields changed, `null` when emptied, and left out otherwise
 * (so nothing in it is ever written back unasked). Pure.
 * @module
 */
import type { Server } from './api-types.js';
import { lines } from './entry-lines.js';

/** One row of the overrides table: the upstream tool's name and what agents see of it. */
export type OverrideRow = { tool: string; name: string; title: string; description: string; hidden: boolean };

type Overrides = NonNullable<Server['toolOverrides']>;

/** The rows of `overrides`, in the file's order. */
export function overrideRows(overrides: Overrides | undefined): OverrideRow[] {
  return Object.entries(overrides ?? {}).map(([tool, o]) => ({
    tool,
    name: o.name ?? '',
    title: o.title ?? '',
    description: o.description ?? '',
    hidden: o.hidden === true,
  }));
}

/** The rows as the form's one value (compared as text to find a change). */
export const rowsText = (rows: readonly OverrideRow[]): string => JSON.stringify(rows);

/** The rows a form value holds. */
export const rowsOf = (text: string | undefined): OverrideRow[] => (text ? (JSON.parse(text) as OverrideRow[]) : []);

/** The form's values of the three groups. */
export function extraValues(server: Server): Record<string, string> {
  const t = server.timeouts;
  return {
    'timeouts.callMs': t?.callMs === undefined ? '' : String(t.callMs),
    'timeouts.resetOnProgress': t?.resetOnProgress === undefined ? '' : String(t.resetOnProgress),
    'timeouts.maxTotalMs': t?.maxTotalMs === undefined ? '' : String(t.maxTotalMs),
    'timeouts.perTool': Object.entries(t?.perTool ?? {})
      .map(([tool, ms]) => `${tool}=${ms}`)
      .join('\n'),
    toolOverrides: rowsText(overrideRows(server.toolOverrides)),
    'oauth.clientId': server.oauth?.clientId ?? '',
    'oauth.clientSecretKey': server.oauth?.clientSecretKey ?? '',
    'oauth.scopes': (server.oauth?.scopes ?? []).join(' '),
  };
}

/** The keys of each group. */
const GROUPS = {
  timeouts: ['timeouts.callMs', 'timeouts.resetOnProgress', 'timeouts.perTool', 'timeouts.maxTotalMs'],
  toolOverrides: ['toolOverrides'],
  oauth: ['oauth.clientId', 'oauth.clientSecretKey', 'oauth.scopes'],
} as const;

const numberOf = (text: string): number | string => {
  const value = Number(text.trim());
  return Number.isNaN(value) ? text.trim() : value;
};

/** The group's value for `PATCH`; throws `[key, message]` for a field that is wrong. */
function groupValue(group: keyof typeof GROUPS, v: Record<string, string>): unknown {
  if (group === 'timeouts') {
    const out: Record<string, unknown> = {};
    if (v['timeouts.callMs']?.trim()) out.callMs = numberOf(v['timeouts.callMs']);
    if (v['timeouts.resetOnProgress']) out.resetOnProgress = v['timeouts.resetOnProgress'] === 'true';
    if (v['timeouts.maxTotalMs']?.trim()) out.maxTotalMs = numberOf(v['timeouts.maxTotalMs']);
    const perTool: Record<string, unknown> = {};
    for (const line of lines(v['timeouts.perTool'] ?? '')) {
      const at = line.indexOf('=');
      if (at <= 0) throw ['timeouts.perTool', `"${line}" is not tool=milliseconds`];
      perTool[line.slice(0, at).trim()] = numberOf(line.slice(at + 1));
    }
    if (Object.keys(perTool).length) out.perTool = perTool;
    return Object.keys(out).length ? out : null;
  }
  if (group === 'toolOverrides') {
    const out: Record<string, Record<string, unknown>> = {};
    rowsOf(v.toolOverrides).forEach((row, i) => {
      const tool = row.tool.trim();
      if (!tool) throw ['toolOverrides', `row ${i + 1}: name the tool it changes`];
      if (out[tool]) throw ['toolOverrides', `row ${i + 1}: ${tool} has a row already`];
      const o: Record<string, unknown> = {};
      if (row.name.trim()) o.name = row.name.trim();
      if (row.title.trim()) o.title = row.title;
      if (row.description.trim()) o.description = row.description;
      if (row.hidden) o.hidden = true;
      out[tool] = o;
    });
    return Object.keys(out).length ? out : null;
  }
  const out: Record<string, unknown> = {};
  if (v['oauth.clientId']?.trim()) out.clientId = v['oauth.clientId'].trim();
  if (v['oauth.clientSecretKey']?.trim()) out.clientSecretKey = v['oauth.clientSecretKey'].trim();
  const scopes = (v['oauth.scopes'] ?? '').split(/\s+/).filter(Boolean);
  if (scopes.length) out.scopes = scopes;
  return Object.keys(out).length ? out : null;
}

/** Add the changed groups of `values` (against `before`) to `patch`, or their errors to `errors`. */
export function patchExtras(
  before: Record<string, string>,
  values: Record<string, string>,
  patch: Record<string, unknown>,
  errors: Record<string, string>,
): void {
  for (const [group, keys] of Object.entries(GROUPS) as [keyof typeof GROUPS, readonly string[]][]) {
    if (!keys.some((key) => (values[key] ?? '') !== (before[key] ?? ''))) continue;
    try {
      patch[group] = groupValue(group, values);
    } catch (failure) {
      const [key, message] = failure as [string, string];
      errors[key] = message;
    }
  }
}

/** The tool an API issue about `toolOverrides` names (`toolOverrides.search.name` → `search`), or null. */
export function toolOfIssue(field: string): string | null {
  return /toolOverrides[.[]"?([^."\]]+)/.exec(field)?.[1] ?? null;
}
