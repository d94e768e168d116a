/**
 * What the bots' verbs are given. Each verb takes only the part it needs (`Pick<BotDeps, …>`).
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import type { Db } from '../storage/create-db.js';
import type { BotLimits } from './bot-limits.js';
import type { BotChange, BotEventSink, BotToolCaller, Credentials } from './ports.js';

/** The dependencies of the bots. */
export type BotDeps = {
  db: Db;
  log: Logger;
  limits: BotLimits;
  /** The gateway's call path for a bot's view. */
  tools: BotToolCaller;
  credentials: Credentials;
  /** Bot creations and deletions are published here (the gateway sends `tools/list_changed`). */
  changes: EventBus<BotChange>;
  /** Bot activity (created, updated, deleted, chat messages, workflow runs) for `/api/events` and MCP sessions. */
  events: BotEventSink;
  /** Secret values the log masks (keystore credentials in use): never in a published excerpt. */
  secrets: ReadonlySet<string>;
  /** Traces on (issue 21): chat turns, LLM calls, tool calls and workflow runs are spans; absent: off. */
  tracer?: Tracer | null;
};
