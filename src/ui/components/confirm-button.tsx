/**
 * A button for something that cannot be undone: the first press asks, the second does it,
 * and Cancel steps back. Keyboard-usable, unlike a browser `confirm()` dialog in
 * a test, and it says what will happen.
 * @module
 */
import { useState } from 'preact/hooks';

/**
 * The button; `question` is what the second press confirms. `what`: the item it acts on, in
 * its accessible name ("Remove memory", not one of many "Remove" buttons in a table, WCAG 2.4.6).
 */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled = false,
  what,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  what?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button
        type="button"
        class="danger"
        disabled={disabled}
        aria-label={what ? `${label} ${what}` : undefined}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <span class="confirm">
      <button
        type="button"
        class="danger"
        // biome-ignore lint/a11y/noAutofocus: the second press is the one asked for
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {question}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
