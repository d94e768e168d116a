/**
 * A server's state as a word with a colour and a shape, so it reads without colour too.
 * @module
 */
import type { ServerStatus } from '../api-types.js';

const MARK: Readonly<Record<ServerStatus['state'], string>> = {
  connected: '●',
  connecting: '◌',
  reconnecting: '↻',
  needs_authorization: '◇',
  disabled: '○',
};

/** Words for a state whose name is too long for its column. */
const LABEL: Partial<Record<ServerStatus['state'], string>> = { needs_authorization: 'needs auth' };

/** The badge. */
export function StateBadge({ state }: { state: ServerStatus['state'] }) {
  return (
    <span class={`badge state-${state}`}>
      <span aria-hidden="true">{MARK[state]} </span>
      {LABEL[state] ?? state}
    </span>
  );
}
