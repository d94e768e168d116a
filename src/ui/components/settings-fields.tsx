/**
 * Every field of a server entry in the settings form, grouped: how it is reached (for its
 * transport), the tools agents see, sampling, timeouts and limits, tool-call timeouts, tool
 * overrides, the OAuth client, reconnect backoff and the notification rate. Each field shows the API's error for it right under it.
 * @module
 */
import { NESTED_FIELDS, NUMBER_FIELDS, type SettingsValues } from '../settings-patch.js';
import { SettingsExtrasFields } from './settings-extras-fields.js';
import { TextField } from './text-field.js';
import { ToolNamesField } from './tool-names-field.js';

type Props = {
  values: SettingsValues;
  errors: Record<string, string>;
  set: (key: string) => (value: string) => void;
  tools: readonly string[];
};

const LABELS: Readonly<Record<string, string>> = {
  connectTimeoutMs: 'Connect timeout (ms)',
  requestTimeoutMs: 'Request timeout (ms)',
  healthIntervalMs: 'Health ping every (ms)',
  pingTimeoutMs: 'Ping timeout (ms)',
  livenessCheckAfterMs: 'Liveness check after (ms)',
  livenessTimeoutMs: 'Liveness timeout (ms)',
  maxConcurrentRequests: 'Requests at once',
  maxMessageBytes: 'Largest message sent (bytes)',
  maxAnswerBytes: 'Largest message read (bytes)',
  samplingBudgetTokens: 'Sampling budget (tokens)',
  'backoff.baseMs': 'First delay (ms)',
  'backoff.factor': 'Growth factor',
  'backoff.capMs': 'Longest delay (ms)',
  'backoff.jitter': 'Jitter (0 to 1)',
  'backoff.resetAfterMs': 'Reset after (ms)',
  'backoff.maxAttempts': 'Attempts at most',
  'notificationRate.perSecond': 'Per second',
  'notificationRate.burst': 'Burst',
  'notificationRate.relistMinIntervalMs': 'Re-list interval (ms)',
  'notificationRate.floodReadBytesPerSecond': 'Read while flooding (bytes/s)',
};

const idOf = (key: string) => `settings-${key.replace('.', '-')}`;

/** A text field of the form by key. */
function Field({ name, label, ...rest }: Props & { name: string; label: string; area?: boolean; hint?: string }) {
  const { values, errors, set, area, hint } = rest;
  return (
    <TextField
      id={idOf(name)}
      label={label}
      area={area}
      hint={hint}
      value={values[name] ?? ''}
      error={errors[name]}
      onInput={set(name)}
    />
  );
}

/** A drop-down of the form by key. */
function Choice({
  name,
  label,
  options,
  values,
  errors,
  set,
}: Props & { name: string; label: string; options: [string, string][] }) {
  const id = idOf(name);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={values[name] ?? ''}
        {...(errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {})}
        onChange={(e) => set(name)(e.currentTarget.value)}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {errors[name] && (
        <span id={`${id}-error`} class="error field-error" role="alert">
          {errors[name]}
        </span>
      )}
    </div>
  );
}

/** Number fields in a grid; empty means the default. */
function Numbers({ legend, keys, ...props }: Props & { legend: string; keys: readonly string[] }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p class="note">Empty: the default applies.</p>
      <div class="settings-grid">
        {keys.map((key) => (
          <TextField
            key={key}
            id={idOf(key)}
            type="number"
            label={LABELS[key] ?? key}
            value={props.values[key] ?? ''}
            error={props.errors[key]}
            onInput={props.set(key)}
          />
        ))}
      </div>
    </fieldset>
  );
}

/** The fields. */
export function SettingsFields(props: Props) {
  const { values, set } = props;
  const stdio = values.type === 'stdio';
  return (
    <>
      <fieldset>
        <legend>How it is reached</legend>
        <Choice
          {...props}
          name="type"
          label="Transport"
          options={[
            ['stdio', 'A command (stdio)'],
            ['http', 'Streamable HTTP'],
            ['sse', 'Legacy SSE'],
            ['auto', 'HTTP, falling back to SSE (auto)'],
          ]}
        />
        {stdio ? (
          <>
            <Field {...props} name="command" label="Command" />
            <Field {...props} name="args" label="Arguments" area hint="one a line" />
            <Field
              {...props}
              name="env"
              label="Environment"
              area
              hint="NAME=value a line; ******** keeps the stored value; ${secret:NAME} reads the keystore"
            />
            <Field {...props} name="cwd" label="Working directory" />
          </>
        ) : (
          <>
            <Field {...props} name="url" label="URL" />
            <Field
              {...props}
              name="headers"
              label="Headers"
              area
              hint="Name: value a line; ******** keeps the stored value"
            />
            <Field {...props} name="credentialKey" label="Credential key" hint="a keystore entry sent as the bearer" />
          </>
        )}
        <Field {...props} name="preset" label="Preset" hint="used only when there is no command or URL" />
        <Choice
          {...props}
          name="scope"
          label="Connections"
          options={[
            ['shared', 'One, shared by every agent'],
            ['session', 'One per agent session'],
          ]}
        />
        <label class="choice">
          <input
            type="checkbox"
            checked={values.enabled === 'true'}
            onChange={(e) => set('enabled')(String(e.currentTarget.checked))}
          />{' '}
          Enabled (unticked: configured, not connected)
        </label>
      </fieldset>
      <ToolNamesField {...props} />
      <fieldset>
        <legend>Sampling</legend>
        <Choice
          {...props}
          name="sampling"
          label="Who answers the server's sampling requests"
          options={[
            ['', "Not set: the calling bot's provider, or the agent"],
            ['client', 'Always the agent'],
            ['bot', "Always the bot's provider"],
            ['deny', 'Nobody (refused)'],
          ]}
        />
      </fieldset>
      <Numbers {...props} legend="Timeouts and limits" keys={NUMBER_FIELDS} />
      <SettingsExtrasFields {...props} />
      <Numbers {...props} legend="Reconnect backoff" keys={NESTED_FIELDS.backoff.map((k) => `backoff.${k}`)} />
      <Numbers
        {...props}
        legend="Notification rate"
        keys={NESTED_FIELDS.notificationRate.map((k) => `notificationRate.${k}`)}
      />
    </>
  );
}
