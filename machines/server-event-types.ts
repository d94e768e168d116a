/**
 * The `type` of every {@link ServerEvent} the supervisor emits (S5), listed once: a record
 * over the union's types, so a new event type fails the type check here until it is named.
 * @module
 */
import type { ServerEvent } from './types.js';

const TYPES: Readonly<Record<ServerEvent['type'], true>> = {
  connecting: true,
  connected: true,
  reconnecting: true,
  needs_authorization: true,
  disabled: true,
  removed: true,
  catalog_changed: true,
  health: true,
};

type ServerEventType = ServerEvent['type'];

/** Every connection event's type. */
export const SERVER_EVENT_TYPES: ReadonlySet<ServerEventType> = new Set(Object.keys(TYPES) as ServerEventType[]);

/** Those that change a connection's state (not a re-listing, not a ping). */
export const SERVER_STATE_EVENT_TYPES: ReadonlySet<ServerEventType> = new Set(
  [...SERVER_EVENT_TYPES].filter((type) => type !== 'catalog_changed' && type !== 'health'),
);
