/**
 * One labelled text control with its error right under it (one line, announced, tied to the
 * control by `aria-describedby` and `aria-invalid`), for the bot's memory, skill and
 * workflow forms.
 * @module
 */

/** The field; `area` makes it a text area of `rows` lines. */
export function FormField({
  id,
  label,
  value,
  onInput,
  error = null,
  area = false,
  rows = 3,
  required = false,
  hint,
  mono = false,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string | null;
  area?: boolean;
  rows?: number;
  required?: boolean;
  hint?: string;
  mono?: boolean;
}) {
  const common = {
    id,
    value,
    required,
    class: mono ? 'mono' : undefined,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onInput: (e: Event) => onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>
        {label}
        {hint && <span class="note"> ({hint})</span>}
      </label>
      {area ? <textarea rows={rows} spellcheck={!mono} {...common} /> : <input type="text" {...common} />}
      {error && (
        <p class="error field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
