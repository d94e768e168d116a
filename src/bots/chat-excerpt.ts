/**
 * The bounded, masked start of a chat message that bot events carry (issue 18): what a UI
 * or an MCP client shows as a line, never the whole message and never a secret the log
 * masks (a keystore credential in use that an answer or a tool result echoed).
 * @module
 */
import { maskSecrets } from '../log/create-logger.js';

/** At most this many characters of a message go into an event. */
export const EXCERPT_CHARS = 200;

/** The excerpt of `text`: masked first (so no cut secret survives), whitespace folded, then cut. */
export function chatExcerpt(text: string, secrets: ReadonlySet<string>): { excerpt: string; truncated: boolean } {
  // The whole text is masked before any cut: a secret across the cut would leave its start.
  const folded = maskSecrets(text, secrets).replace(/\s+/g, ' ').trim();
  const truncated = folded.length > EXCERPT_CHARS;
  return { excerpt: truncated ? `${folded.slice(0, EXCERPT_CHARS - 1)}…` : folded, truncated };
}
