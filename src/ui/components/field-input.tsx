/**
 * One field of a tool's test form (`tool-form.ts`): its label (a star when required), the
 * control that fits its kind (a choice's values shown as a person reads them, a string
 * without its JSON quotes), its type and description as a hint, and its error.
 * @module
 */
import type { JSX } from 'preact';
import { choiceLabel, type Field } from '../tool-form.js';

/** One field with its label, hint and error. */
export function FieldInput({
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
            {field.kind === 'boolean' ? choice : choiceLabel(choice)}
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
