/**
 * One argument of a prompt or variable of a resource template: a labelled text field, marked
 * when required, its description as the hint, and the server's suggestions for it offered
 * in a `<datalist>`.
 * @module
 */

/** The field; `suggestions` fill its list of values to pick from. */
export function ArgumentField({
  id,
  name,
  required = false,
  description,
  value,
  suggestions,
  onInput,
  onFocus,
}: {
  id: string;
  name: string;
  required?: boolean;
  description?: string | undefined;
  value: string;
  suggestions: readonly string[] | undefined;
  onInput: (value: string) => void;
  onFocus?: () => void;
}) {
  const list = `${id}-values`;
  return (
    <div class="field">
      {/* The star stays out of the label: `required` on the control says it to assistive technology. */}
      <span>
        <label for={id}>{name}</label>
        {required && (
          <span class="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </span>
      <input
        id={id}
        name={name}
        type="text"
        required={required}
        autocomplete="off"
        list={list}
        value={value}
        {...(description ? { 'aria-describedby': `${id}-hint` } : {})}
        onInput={(e) => onInput(e.currentTarget.value)}
        {...(onFocus ? { onFocus } : {})}
      />
      <datalist id={list} data-argument={name}>
        {suggestions?.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      {description && (
        <span id={`${id}-hint`} class="note">
          {description}
        </span>
      )}
    </div>
  );
}
