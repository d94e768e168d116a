/**
 * Everything published on the bus (SPEC S5). Server events come from the supervisor;
 * the rest from the config watcher and, later, the gateway and the guard.
 * @module
 */
import type { ServerEvent } from '../../machines/index.js';

/** A config file that could not be applied; the last good config stays in force (C2). */
export type ConfigErrorEvent = {
  readonly type: 'config_error';
  readonly server: string | null;
  readonly file: string | null;
  readonly message: string;
  readonly issues: readonly { server: string | null; field: string; message: string }[];
};

/** A config file that was applied (after a hot reload), with what changed. */
export type ConfigAppliedEvent = {
  readonly type: 'config_applied';
  readonly server: null;
  readonly file: string | null;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
};

/** Every event type the bus carries. */
export type HubEvent = ServerEvent | ConfigErrorEvent | ConfigAppliedEvent;

/** The `type` of a hub event. */
export type HubEventType = HubEvent['type'];
