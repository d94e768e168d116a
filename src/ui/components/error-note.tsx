/**
 * An error said in one line, announced to screen readers as it appears.
 * @module
 */

/** The note; nothing when there is no error. */
export function ErrorNote({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}
