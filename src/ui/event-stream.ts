/**
 * The page's one connection to `/api/events` (SPEC A2): an `EventSource`, which sends the
 * session cookie and, after a drop, reconnects by itself with `Last-Event-ID`, so the
 * service replays what was missed. No polling anywhere.
 * @module
 */
import type { HubEventType, LiveEvent, Snapshot } from './api-types.js';

/** Every event type the bus carries: a new one fails the type check here until it is listed. */
const EVENT_TYPES: Readonly<Record<HubEventType, true>> = {
  connecting: true,
  connected: true,
  reconnecting: true,
  needs_authorization: true,
  disabled: true,
  removed: true,
  catalog_changed: true,
  tool_call: true,
  health: true,
  config_error: true,
  config_applied: true,
  tool_quarantined: true,
  tool_approved: true,
  server_flooding: true,
  catalog_churn: true,
  bot_created: true,
  bot_updated: true,
  bot_deleted: true,
  chat_message: true,
  workflow_started: true,
  workflow_step_finished: true,
  workflow_finished: true,
};

/** Whether the stream is open, being reopened, or closed for good (the session ended). */
export type StreamState = 'open' | 'reconnecting' | 'closed';

/** What the stream reports to. */
export type StreamHandlers = {
  onSnapshot(snapshot: Snapshot): void;
  onEvent(event: LiveEvent): void;
  onState(state: StreamState): void;
};

/** Open the stream; the function returned closes it. */
export function openEventStream({ onSnapshot, onEvent, onState }: StreamHandlers): () => void {
  const source = new EventSource('/api/events', { withCredentials: true });
  source.addEventListener('open', () => onState('open'));
  source.addEventListener('error', () => onState(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting'));
  source.addEventListener('snapshot', (message) => onSnapshot(JSON.parse((message as MessageEvent<string>).data)));
  for (const type of Object.keys(EVENT_TYPES)) {
    source.addEventListener(type, (message) => onEvent(JSON.parse((message as MessageEvent<string>).data)));
  }
  return () => source.close();
}
