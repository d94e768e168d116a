/**
 * One labelled field of the bot form: a text input or text area, its hint, and in place of
 * the hint the API's one line about it when it refused the form (announced, and tied to
 * the input with `aria-describedby` and `aria-invalid`).
 * @module
 */

/** The field; `error` replaces the hint while there is one. */
export function BotField({
  id,
  label,
  value,
  onInput,
  hint,
  error,
  area = false,
  required = false,
  readOnly = false,
  list,
  inputMode,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string | undefined;
  error?: string | undefined;
  area?: boolean;
  required?: boolean;
  readOnly?: boolean;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
  inputMode?: 'numeric';
}) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const props = {
    id,
    value,
    required,
    readOnly,
    spellcheck: false,
    ...(described ? { 'aria-describedby': described } : {}),
    ...(error ? { 'aria-invalid': 'true' as const } : {}),
    onInput: (e: Event) => onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {area ? (
        <textarea rows={3} {...props} />
      ) : (
        <input type="text" autocomplete="off" {...(list ? { list } : {})} inputMode={inputMode} {...props} />
      )}
      {error ? (
        <p id={`${id}-error`} class="error" role="alert">
          {error}
        </p>
      ) : (
        hint && (
          <span id={`${id}-hint`} class="note">
            {hint}
          </span>
        )
      )}
    </div>
  );
}
