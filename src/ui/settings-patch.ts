/**
 * A server's settings as the settings form edits them, and the `PATCH` its changes make
 * (issue 19). The form is prefilled from `GET /api/servers/{name}`, where secrets read
 * `********`: only the fields the user changed are sent, so a secret is never written back
 * as its mask. `env` and `headers` are sent whole once changed, with the masked values as
 * shown, which the API keeps as they are in the file; a changed argument list or URL that
 * still holds a hidden part is refused here, since nobody can say what it stood for.
 * Pure: no DOM, no fetch.
 * @module
 */
import type { Server, ServerPatch } from './api-types.js';
import { lines, pairLines, pairs } from './entry-lines.js';
import { extraValues, patchExtras } from './settings-extras.js';

/** What `GET` shows in place of a secret. */
export const MASKED = '********';

/** The form's values: text by field key (`backoff.baseMs` for a nested one). */
export type SettingsValues = Record<string, string>;

/** Numbers of the entry itself, in the order the form shows them. */
export const NUMBER_FIELDS = [
  'connectTimeoutMs',
  'requestTimeoutMs',
  'healthIntervalMs',
  'pingTimeoutMs',
  'livenessCheckAfterMs',
  'livenessTimeoutMs',
  'maxConcurrentRequests',
  'maxMessageBytes',
  'maxAnswerBytes',
  'samplingBudgetTokens',
] as const;

/** Numbers of the nested objects, which a `PATCH` replaces whole. */
export const NESTED_FIELDS = {
  backoff: ['baseMs', 'factor', 'capMs', 'jitter', 'resetAfterMs', 'maxAttempts'],
  notificationRate: ['perSecond', 'burst', 'relistMinIntervalMs', 'floodReadBytesPerSecond'],
} as const;

/** Plain text fields: '' removes the field. */
const TEXT_FIELDS = ['command', 'cwd', 'url', 'credentialKey', 'preset', 'sampling', 'scope'] as const;

const isStdio = (type: string | undefined) => (type ?? 'stdio') === 'stdio';
const numberText = (value: unknown) => (typeof value === 'number' ? String(value) : '');

/** The form's values for `server` as the API shows it. */
export function settingsValues(server: Server): SettingsValues {
  const values: SettingsValues = {
    type: server.command !== undefined ? 'stdio' : (server.type ?? 'auto'),
    args: (server.args ?? []).join('\n'),
    env: pairLines(server.env, '='),
    headers: pairLines(server.headers, ':'),
    enabled: String(server.enabled),
    allowAll: String(server.allowedTools === undefined),
    allowedTools: (server.allowedTools ?? []).join('\n'),
    deniedTools: (server.deniedTools ?? []).join('\n'),
    ...extraValues(server),
  };
  for (const key of TEXT_FIELDS) values[key] = String(server[key] ?? '');
  for (const key of NUMBER_FIELDS) values[key] = numberText(server[key]);
  for (const [group, keys] of Object.entries(NESTED_FIELDS)) {
    const nested = (server as Record<string, unknown>)[group] as Record<string, unknown> | undefined;
    for (const key of keys) values[`${group}.${key}`] = numberText(nested?.[key]);
  }
  return values;
}

/** A number as typed: '' removes the field (its default applies); other text goes as is, for the API to judge. */
const numberOf = (text: string): number | string | null => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isNaN(value) ? trimmed : value;
};

/** The patch's outcome: what to send, or what is wrong, by field key. */
export type SettingsPatch = { patch: ServerPatch; errors: Record<string, string> };

/** The `PATCH` body for the fields of `values` that differ from `server`'s. */
export function settingsPatch(server: Server, values: SettingsValues): SettingsPatch {
  const before = settingsValues(server);
  const changed = (key: string) => (values[key] ?? '') !== (before[key] ?? '');
  const patch: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const attempt = (key: string, make: () => unknown) => {
    try {
      patch[key] = make();
    } catch (failure) {
      errors[key] = (failure as Error).message;
    }
  };
  const stdio = isStdio(values.type);
  const switched = stdio !== isStdio(before.type);
  // A preset's command and arguments are expanded in what GET shows: written back alone, the
  // preset would add its own arguments again, so the entry is given its own command with them.
  const launch = stdio ? ['command', 'args'] : ['url'];
  const ownLaunch = server.preset !== undefined && launch.some(changed);
  const send = (key: string) => switched || changed(key) || (ownLaunch && launch.includes(key));

  if (changed('type') || switched) patch.type = values.type;
  for (const key of stdio ? ['command', 'cwd'] : ['url', 'credentialKey'])
    if (send(key)) patch[key] = values[key]?.trim() || null;
  if (send('args'))
    attempt('args', () => {
      const args = lines(values.args ?? '');
      const hidden = args.findIndex((arg) => arg.includes(MASKED));
      if (hidden >= 0)
        throw new Error(`argument ${hidden + 1} has a hidden part (${MASKED}): type it in full, or undo the change`);
      return args.length ? args : null;
    });
  if (send('url') && String(patch.url ?? '').includes(MASKED))
    errors.url = `the URL has a hidden part (${MASKED}): type it in full, or undo the change`;
  if (send(stdio ? 'env' : 'headers'))
    attempt(stdio ? 'env' : 'headers', () =>
      stdio
        ? (pairs(values.env ?? '', '=', 'environment') ?? null)
        : (pairs(values.headers ?? '', ':', 'headers') ?? null),
    );
  // Switched, the other transport's fields go.
  if (switched)
    for (const key of stdio ? ['url', 'headers', 'credentialKey'] : ['command', 'args', 'env', 'cwd'])
      patch[key] = null;

  for (const key of ['preset', 'sampling', 'scope'] as const) if (changed(key)) patch[key] = values[key] || null;
  if (changed('enabled')) patch.enabled = values.enabled === 'true';
  if (changed('allowAll') || changed('allowedTools'))
    patch.allowedTools = values.allowAll === 'true' ? null : lines(values.allowedTools ?? '');
  if (changed('deniedTools')) {
    const denied = lines(values.deniedTools ?? '');
    patch.deniedTools = denied.length ? denied : null;
  }
  for (const key of NUMBER_FIELDS) if (changed(key)) patch[key] = numberOf(values[key] ?? '');
  for (const [group, keys] of Object.entries(NESTED_FIELDS)) {
    if (!keys.some((key) => changed(`${group}.${key}`))) continue;
    const nested = Object.fromEntries(
      keys.map((key) => [key, numberOf(values[`${group}.${key}`] ?? '')]).filter(([, value]) => value !== null),
    );
    patch[group] = Object.keys(nested).length ? nested : null;
  }
  patchExtras(before, values, patch, errors);
  return { patch: patch as ServerPatch, errors };
}

/**
 * The form field an API issue names: `mcpServers.fs.args[1]` (the config's parser),
 * `args.0` or `backoff.baseMs` (the request's schema) → `args`, `backoff.baseMs`.
 */
export function fieldOfIssue(field: string): string {
  const path = field.replace(/^(mcpServers|servers)\.[^.[]+\.?/, '').split(/[.[]/);
  const [first = '', second] = path;
  if (first === 'toolOverrides') return first;
  return (first in NESTED_FIELDS || first === 'timeouts' || first === 'oauth') && second ? `${first}.${second}` : first;
}
