/**
 * One labelled text input or text area with an optional hint and the error the API gave
 * for it, shown right under it. Shared by the add form and the settings form.
 * @module
 */

/** What a {@link TextField} shows. */
export type TextFieldProps = {
  id: string;
  label: string;
  value: string;
  hint?: string | undefined;
  area?: boolean | undefined;
  required?: boolean | undefined;
  /** `number` for a count or a duration: a numeric keyboard, and the API says what is wrong with it. */
  type?: 'text' | 'number' | undefined;
  error?: string | undefined;
  onInput: (value: string) => void;
};

/** The field. */
export function TextField({
  id,
  label,
  value,
  hint,
  area = false,
  required = false,
  type = 'text',
  error,
  onInput,
}: TextFieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const props = {
    id,
    value,
    required,
    ...(described ? { 'aria-describedby': described } : {}),
    ...(error ? { 'aria-invalid': true } : {}),
    onInput: (e: Event) => onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {area ? (
        <textarea rows={3} {...props} />
      ) : (
        <input type="text" autocomplete="off" inputMode={type === 'number' ? 'decimal' : 'text'} {...props} />
      )}
      {hint && (
        <span id={`${id}-hint`} class="note">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} class="error field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
