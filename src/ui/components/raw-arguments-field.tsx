/**
 * The test form's raw mode: the arguments as one JSON object in a text area, with the one
 * line that says what is wrong with them, linked to the text area for screen readers.
 * @module
 */

/** The text area. */
export function RawArgumentsField({
  id,
  value,
  error,
  onInput,
}: {
  id: string;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>Arguments (JSON)</label>
      <textarea
        id={id}
        rows={6}
        spellcheck={false}
        value={value}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      <span id={`${id}-hint`} class="note">
        one JSON object, sent as the call's arguments as it is; empty: {'{}'}
      </span>
      {error && (
        <span id={`${id}-error`} class="error field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
