/**
 * Everything published on the bus (SPEC S5), in a module of its own so that every part
 * can name the events without depending on the hub. Server events come from the
 * supervisor, `config_applied` from the hub, `config_error` from the config watcher,
 * quarantines and approvals from the pin guard, floods from the notification limits, and
 * bot activity (created, updated, deleted, chat messages, workflow runs) from the bots' verbs.
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
  /** Cluster mode: the replica that saw the change, when not this one (this one read it from the database). */
  readonly relayedFrom?: string;
};

/** A quarantined tool's new description and schema were approved; it is listed again. */
export type ToolApprovedEvent = {
  readonly type: 'tool_approved';
  readonly server: string;
  readonly tool: string;
  /** Cluster mode: the replica the approval was made through, when not this one. */
  readonly relayedFrom?: string;
};

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

/** A bot added to the registry (`POST /api/bots`, `bnity bot create`, `create_bot`). */
export type BotCreatedEvent = {
  readonly type: 'bot_created';
  readonly server: null;
  readonly bot: string;
  readonly name: string;
};

/** A bot's profile changed (name, description, prompt, provider, budget); `fields` names what the patch set. */
export type BotUpdatedEvent = {
  readonly type: 'bot_updated';
  readonly server: null;
  readonly bot: string;
  readonly name: string;
  readonly fields: readonly string[];
};

/** A bot removed from the registry (its view in the config file, if any, stays). */
export type BotDeletedEvent = { readonly type: 'bot_deleted'; readonly server: null; readonly bot: string };

/**
 * A message stored in a bot's chat history (issue 18): the user's, the assistant's, a tool
 * result or an error. `excerpt` is its start, at most 200 characters, with every secret the
 * log masks replaced; `chars` is the whole message's length.
 */
export type ChatMessageEvent = {
  readonly type: 'chat_message';
  readonly server: null;
  readonly bot: string;
  readonly sessionId: string;
  readonly role: 'user' | 'assistant' | 'tool' | 'error';
  /** The tool a `tool` message answers, or the tools an `assistant` message asks for (else empty). */
  readonly tools: readonly string[];
  readonly excerpt: string;
  readonly chars: number;
  readonly truncated: boolean;
};

/**
 * A bot's workflow started (its request was valid: the bot and the workflow exist). `runId`
 * names this run in its step events, its end and its result (issue 19).
 */
export type WorkflowStartedEvent = {
  readonly type: 'workflow_started';
  readonly server: null;
  readonly bot: string;
  readonly workflow: string;
  readonly runId: string;
  readonly steps: number;
};

/**
 * One step of a run ended (issue 19), published as it ends so a watcher sees the run advance:
 * `status`, `durationMs` and `error` (bounded and masked as `workflow_finished`'s). Steps
 * skipped after a failure publish none (`workflow_finished` names the failed step). Never
 * the step's result: the run's answer has it.
 */
export type WorkflowStepFinishedEvent = {
  readonly type: 'workflow_step_finished';
  readonly server: null;
  readonly bot: string;
  readonly workflow: string;
  readonly runId: string;
  readonly step: string;
  readonly tool: string;
  /** Its position in the workflow, from 0. */
  readonly index: number;
  readonly status: 'succeeded' | 'failed';
  readonly durationMs: number;
  readonly error: string | null;
};

/** A bot's workflow ended: `failedStep` and `error` say where and why it stopped (null when it succeeded). */
export type WorkflowFinishedEvent = {
  readonly type: 'workflow_finished';
  readonly server: null;
  readonly bot: string;
  readonly workflow: string;
  readonly runId: string;
  readonly status: 'succeeded' | 'failed';
  readonly failedStep: string | null;
  readonly error: string | null;
  readonly durationMs: number;
};

/** What the bots publish about their activity (`/api/events`, and the MCP push of ADR 023). */
export type BotEvent =
  | BotCreatedEvent
  | BotUpdatedEvent
  | BotDeletedEvent
  | ChatMessageEvent
  | WorkflowStartedEvent
  | WorkflowStepFinishedEvent
  | WorkflowFinishedEvent;

/** Every event type the bus carries. */
/**
 * A tool call made through the gateway (SPEC S5's `tool_call`), as its audit row has it: by an
 * agent (`client`: its token id, `admin`, `stdio`) or a bot (`bot`). Published after the answer
 * has left, a loop turn later, never on the call's own path.
 */
export type ToolCallEvent = {
  readonly type: 'tool_call';
  readonly server: string | null;
  readonly tool: string | null;
  readonly bot: string | null;
  readonly client: string | null;
  readonly success: boolean;
  readonly durationMs: number | null;
  readonly sanitized: boolean;
  readonly error: string | null;
};

export type HubEvent =
  | ServerEvent
  | ToolCallEvent
  | ConfigErrorEvent
  | ConfigAppliedEvent
  | ToolQuarantinedEvent
  | ToolApprovedEvent
  | ServerFloodingEvent
  | CatalogChurnEvent
  | BotEvent;

/** The `type` of a hub event. */
export type HubEventType = HubEvent['type'];
