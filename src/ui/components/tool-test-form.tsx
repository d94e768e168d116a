/**
 * The test form of one tool, generated from its input schema (`tool-form.ts`): fill it, run
 * the tool through `POST /api/servers/{name}/tools/{tool}/call` (as an agent would call it:
 * view, pins, sanitizer and audit apply) and see the result.
 * @module
 */
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { ToolCallResult } from '../api-types.js';
import { type Field, type FormValues, initialValues, toArguments, toFields } from '../tool-form.js';
import { CallResult } from './call-result.js';
import { ErrorNote } from './error-note.js';

/** One field with its label, hint and error. */
function FieldInput({
  id,
  field,
  value,
  error,
  onInput,
}: {
  id: string;
  field: Field;
  value: string | boolean;
  error: string | undefined;
  onInput: (value: string | boolean) => void;
}) {
  const hint = `${id}-hint`;
  const common = {
    id,
    name: field.name,
    'aria-describedby': hint,
    'aria-invalid': error ? true : undefined,
    required: field.required && field.kind !== 'boolean',
  };
  const text = typeof value === 'string' ? value : '';
  let input: JSX.Element;
  if (field.kind === 'boolean' && typeof value === 'boolean')
    input = <input {...common} type="checkbox" checked={value} onChange={(e) => onInput(e.currentTarget.checked)} />;
  else if (field.kind === 'boolean' || field.kind === 'choice')
    input = (
      <select {...common} value={text} onChange={(e) => onInput(e.currentTarget.value)}>
        {!field.required && <option value="">(not set)</option>}
        {(field.kind === 'boolean' ? ['true', 'false'] : field.choices).map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  else if (field.kind === 'json' || field.kind === 'lines')
    input = (
      <textarea
        {...common}
        rows={field.kind === 'json' ? 4 : 3}
        value={text}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  else if (field.kind === 'text')
    input = <input {...common} type="text" value={text} onInput={(e) => onInput(e.currentTarget.value)} />;
  else
    input = (
      <input
        {...common}
        type="number"
        step={field.kind === 'integer' ? 1 : 'any'}
        value={text}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  return (
    <div class="field">
      {/* The star stays out of the label: `required` on the control says it to assistive technology. */}
      <span>
        <label for={id}>{field.name}</label>
        {field.required && (
          <span class="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </span>
      {input}
      <span id={hint} class="note">
        {field.type}
        {field.kind === 'lines' && ', one per line'}
        {field.kind === 'json' && ', as JSON'}
        {field.description && ` — ${field.description}`}
      </span>
      {error && (
        <span class="error" role="alert">
          {field.name}: {error}
        </span>
      )}
    </div>
  );
}

/** The form for `tool` of `server`. */
export function ToolTestForm({
  api,
  server,
  tool,
  inputSchema,
}: {
  api: ApiClient;
  server: string;
  tool: string;
  inputSchema: unknown;
}) {
  const fields = useMemo(() => toFields(inputSchema), [inputSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ToolCallResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const idOf = (name: string) => `call-${server}-${tool}-${name}`.replace(/[^\w-]/g, '_');

  const run = async (event: Event) => {
    event.preventDefault();
    const parsed = toArguments(fields, values);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    setRunning(true);
    setFailure(null);
    try {
      setResult((await api.callTool(server, tool, { arguments: parsed.arguments })).result);
    } catch (error) {
      setResult(null);
      setFailure((error as Error).message);
    } finally {
      setRunning(false);
    }
  };
  return (
    // Checked by toArguments, whose messages name the field and are announced (not the browser's bubbles).
    <form class="tool-form" onSubmit={run} aria-label={`Run ${tool}`} noValidate>
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          id={idOf(field.name)}
          field={field}
          value={values[field.name] ?? field.initial}
          error={errors[field.name]}
          onInput={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
        />
      ))}
      <button type="submit" disabled={running}>
        {running ? 'Running…' : `Run ${tool}`}
      </button>
      <ErrorNote error={failure} />
      {result && <CallResult result={result} />}
    </form>
  );
}
