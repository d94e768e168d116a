/**
 * The settings form's groups for tool-call timeouts (SPEC D2), tool overrides (D3) and, for
 * a remote server, its pre-registered OAuth client (issue 23). Each field shows the API's
 * error for it right under it.
 * @module
 */
import type { SettingsValues } from '../settings-patch.js';
import { TextField } from './text-field.js';
import { ToolOverridesField } from './tool-overrides-field.js';

type Props = {
  values: SettingsValues;
  errors: Record<string, string>;
  set: (key: string) => (value: string) => void;
  tools: readonly string[];
};

const idOf = (key: string) => `settings-${key.replace('.', '-')}`;

/** A text field by key. */
function Field({ name, label, hint, props }: { name: string; label: string; hint?: string; props: Props }) {
  return (
    <TextField
      id={idOf(name)}
      label={label}
      hint={hint}
      value={props.values[name] ?? ''}
      error={props.errors[name]}
      onInput={props.set(name)}
    />
  );
}

/** The groups. */
export function SettingsExtrasFields(props: Props) {
  const { values, errors, set, tools } = props;
  const resetId = idOf('timeouts.resetOnProgress');
  return (
    <>
      <fieldset>
        <legend>Tool-call timeouts</legend>
        <p class="note">Empty: the gateway's limit, else the request timeout.</p>
        <Field props={props} name="timeouts.callMs" label="Every tool call (ms)" />
        <TextField
          id={idOf('timeouts.perTool')}
          label="Per tool (ms)"
          area
          hint="tool=milliseconds a line, by the server's own tool name; wins over the limit above"
          value={values['timeouts.perTool'] ?? ''}
          error={errors['timeouts.perTool']}
          onInput={set('timeouts.perTool')}
        />
        <div class="field">
          <label for={resetId}>Progress restarts the limit</label>
          <select
            id={resetId}
            value={values['timeouts.resetOnProgress'] ?? ''}
            onChange={(e) => set('timeouts.resetOnProgress')(e.currentTarget.value)}
          >
            <option value="">Not set: the gateway's setting (yes)</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        </div>
        <Field props={props} name="timeouts.maxTotalMs" label="In all, however much progress (ms)" />
      </fieldset>
      <ToolOverridesField
        value={values.toolOverrides}
        error={errors.toolOverrides}
        tools={tools}
        onInput={set('toolOverrides')}
      />
      {values.type !== 'stdio' && (
        <fieldset>
          <legend>OAuth client</legend>
          <p class="note">
            Only for a client registered by hand with the authorization server; empty: boternity registers itself.
          </p>
          <Field props={props} name="oauth.clientId" label="Client ID" />
          <Field
            props={props}
            name="oauth.clientSecretKey"
            label="Client secret (keystore name)"
            hint="the name of a keystore entry holding the secret, never the secret itself"
          />
          <Field
            props={props}
            name="oauth.scopes"
            label="Scopes"
            hint="separated by spaces; empty: what the server asks for"
          />
        </fieldset>
      )}
    </>
  );
}
