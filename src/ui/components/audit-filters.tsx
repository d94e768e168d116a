/**
 * The audit's filters: drop-downs where the values are known (servers, bots, clients with
 * the tokens' names, event types, direction, outcome), text where they are open (tool,
 * client name) and date inputs for the time range. Applying them writes them to the URL.
 * @module
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  AUDIT_EVENTS,
  AUDIT_FILTERS,
  type AuditFilter,
  DEFAULT_LIMIT,
  fromLocalInput,
  toLocalInput,
  UI_TEST_CLIENT,
} from '../audit-filters.js';

/** The values the drop-downs offer, besides those fixed here. */
export type AuditOptions = {
  readonly servers: readonly string[];
  readonly bots: readonly string[];
  readonly tokens: readonly { id: string; name: string }[];
};

type Form = Record<AuditFilter, string>;

/** The `client` drop-down's value standing for the UI's test calls (`client=admin&clientName=boternity-ui`). */
const UI_CALLS = 'ui';

/** The form's values for the URL's filters. */
function formOf(url: Readonly<Record<string, string>>): Form {
  const form = Object.fromEntries(AUDIT_FILTERS.map((key) => [key, url[key] ?? ''])) as Form;
  if (form.client === 'admin' && form.clientName === UI_TEST_CLIENT)
    Object.assign(form, { client: UI_CALLS, clientName: '' });
  return {
    ...form,
    since: toLocalInput(form.since),
    until: toLocalInput(form.until),
    limit: form.limit || DEFAULT_LIMIT,
  };
}

/** The URL's filters for the form's values (empty ones and the default limit left out). */
function urlOf(given: Form): Record<string, string> {
  const form = given.client === UI_CALLS ? { ...given, client: 'admin', clientName: UI_TEST_CLIENT } : given;
  const url: Record<string, string> = {};
  for (const key of AUDIT_FILTERS) if (form[key].trim()) url[key] = form[key].trim();
  for (const key of ['since', 'until'] as const) if (url[key]) url[key] = fromLocalInput(url[key]);
  if (url.limit === DEFAULT_LIMIT) delete url.limit;
  return url;
}

/** A drop-down of `values` (with `any` first); a value the URL names but the list lacks is kept. */
function Choice({
  name,
  label,
  value,
  values,
  onChange,
}: {
  name: AuditFilter;
  label: string;
  value: string;
  values: readonly (string | readonly [value: string, text: string])[];
  onChange: (value: string) => void;
}) {
  const pairs = values.map((v) => (typeof v === 'string' ? ([v, v] as const) : v));
  if (value && !pairs.some(([v]) => v === value)) pairs.push([value, value]);
  return (
    <div class="field">
      <label for={`audit-${name}`}>{label}</label>
      <select id={`audit-${name}`} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">any</option>
        {pairs.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The form; `onApply` gets the URL's filters. */
export function AuditFilters({
  url,
  options,
  onApply,
  onRefresh,
}: {
  url: Readonly<Record<string, string>>;
  options: AuditOptions;
  onApply: (filters: Record<string, string>) => void;
  onRefresh: () => void;
}) {
  const [form, setForm] = useState(() => formOf(url));
  const shown = JSON.stringify(formOf(url));
  // The URL changed by itself (back, forward, a link): the form follows it. Only a change: the
  // form started from this URL, and what was typed before the effect first ran is kept.
  const followed = useRef(shown);
  useEffect(() => {
    if (followed.current === shown) return;
    followed.current = shown;
    setForm(JSON.parse(shown) as Form);
  }, [shown]);
  const set = (key: AuditFilter) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const input = (key: AuditFilter) => (e: Event) => set(key)((e.currentTarget as HTMLInputElement).value);
  const apply = (event: Event) => {
    event.preventDefault();
    onApply(urlOf(form));
  };
  const clients: [string, string][] = [
    ['admin', 'admin (UI, CLI, admin token)'],
    [UI_CALLS, 'admin: test calls from this UI'],
    ['stdio', 'stdio (bnity mcp serve --stdio)'],
    ...options.tokens.map(({ id, name }): [string, string] => [id, `token ${name}`]),
  ];
  return (
    <form class="card filters" onSubmit={apply} aria-label="Filters">
      <Choice name="server" label="server" value={form.server} values={options.servers} onChange={set('server')} />
      <Choice name="bot" label="bot" value={form.bot} values={options.bots} onChange={set('bot')} />
      <Choice name="client" label="client" value={form.client} values={clients} onChange={set('client')} />
      <div class="field">
        <label for="audit-clientName">client name</label>
        <input
          id="audit-clientName"
          type="text"
          placeholder="claude-code/2.1.330"
          value={form.clientName}
          disabled={form.client === UI_CALLS}
          onInput={input('clientName')}
        />
      </div>
      <Choice name="event" label="event" value={form.event} values={AUDIT_EVENTS} onChange={set('event')} />
      <Choice
        name="direction"
        label="direction"
        value={form.direction}
        values={[
          ['server', 'server: boternity serving agents'],
          ['client', "client: boternity as an upstream's client"],
        ]}
        onChange={set('direction')}
      />
      <Choice
        name="success"
        label="outcome"
        value={form.success}
        values={[
          ['true', 'ok'],
          ['false', 'failed'],
        ]}
        onChange={set('success')}
      />
      <div class="field">
        <label for="audit-tool">tool</label>
        <input id="audit-tool" type="text" value={form.tool} onInput={input('tool')} />
      </div>
      <div class="field">
        <label for="audit-since">since</label>
        <input id="audit-since" type="datetime-local" value={form.since} onInput={input('since')} />
      </div>
      <div class="field">
        <label for="audit-until">until</label>
        <input id="audit-until" type="datetime-local" value={form.until} onInput={input('until')} />
      </div>
      <div class="field">
        <label for="audit-limit">per page</label>
        <input id="audit-limit" type="number" min={1} max={1000} value={form.limit} onInput={input('limit')} />
      </div>
      <div class="buttons">
        <button type="submit">Show</button>
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
    </form>
  );
}
