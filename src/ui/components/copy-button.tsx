/**
 * Copies a text to the clipboard and says so (the page is a secure context on localhost, so
 * the Clipboard API is there; when it is refused, the text is selected for Ctrl+C instead).
 * @module
 */
import { useState } from 'preact/hooks';

/**
 * The button; `target` is the id of the element holding the text, selected if copying fails;
 * `label` names it when a card has more than one.
 */
export function CopyButton({ text, target, label = 'Copy' }: { text: string; target: string; label?: string }) {
  const [done, setDone] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied');
    } catch {
      const element = document.getElementById(target);
      if (element) getSelection()?.selectAllChildren(element);
      setDone('Selected: press Ctrl+C');
    }
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" class="note">
        {done}
      </span>
    </>
  );
}
