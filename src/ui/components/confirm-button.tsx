/**
 * A button for something that cannot be undone: the first press asks, the second does it,
 * and Cancel steps back. Keyboard-usable, unlike a browser `confirm()` dialog in
 * a test, and it says what will happen.
 * @module
 */
import { useState } from 'preact/hooks';

/** The button; `question` is what the second press confirms. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled = false,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="danger" disabled={disabled} onClick={() => setAsking(true)}>
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
