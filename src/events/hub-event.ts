/**
 * Everything published on the bus (SPEC S5), in a module of its own so that every part
 * can name the events without depending on the hub. Server events come from the
 * supervisor, `config_applied` from the hub, `config_error` from the config watcher,
 * quarantines and approvals from the pin guard, floods from the notification limits.
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

/**
 * A pinned tool whose description or schema changed (X5): under policy `strict` it is hidden
 * until approved. `shadows` names other servers' tools its description mentions, if any.
 */
export type ToolQuarantinedEvent = {
  readonly type: 'tool_quarantined';
  readonly server: string;
  readonly tool: string;
  readonly previousHash: string;
  readonly hash: string;
  readonly policy: 'strict' | 'warn';
  readonly shadows?: readonly string[];
};

/** A quarantined tool's new description and schema were approved; it is listed again. */
export type ToolApprovedEvent = { readonly type: 'tool_approved'; readonly server: string; readonly tool: string };

/**
 * A server started (`flooding: true`) or stopped sending notifications over its
 * `notificationRate` (issue 17): the excess is dropped and counted. `dropped` and `byKind`
 * count this flood (`message`, `resources_updated`, `progress`, `list_changed`, `other`),
 * `droppedTotal` every flood of the server; `durationMs` is how long it lasted (0 at its start).
 */
export type ServerFloodingEvent = {
  readonly type: 'server_flooding';
  readonly server: string;
  readonly flooding: boolean;
  readonly dropped: number;
  readonly byKind: Readonly<Record<string, number>>;
  readonly droppedTotal: number;
  readonly perSecond: number;
  readonly burst: number;
  readonly durationMs: number;
};

/**
 * A server whose tools change too often (X5): while `churning`, its changes are summarized
 * here once per window (`changes` counted, `summarized` of them not reported one by one)
 * instead of one `tool_quarantined` each; `churning: false` once a window passed calmly.
 */
export type CatalogChurnEvent = {
  readonly type: 'catalog_churn';
  readonly server: string;
  readonly churning: boolean;
  readonly changes: number;
  readonly summarized: number;
  readonly windowMs: number;
  /** When the churn began (ISO 8601), or null once it ended. */
  readonly since: string | null;
};

/** Every event type the bus carries. */
export type HubEvent =
  | ServerEvent
  | ConfigErrorEvent
  | ConfigAppliedEvent
  | ToolQuarantinedEvent
  | ToolApprovedEvent
  | ServerFloodingEvent
  | CatalogChurnEvent;

/** The `type` of a hub event. */
export type HubEventType = HubEvent['type'];
