/**
 * The parts every request kind on the call path uses, in one typed object that the
 * gateway builds once: config, views, connections, admission, attribution, loss of a
 * connection, sanitizer, audit and the session registry.
 * @module
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { BotPrompts, BotRoster, BotTools } from '../../bots/ports.js';
import type { AppConfig } from '../../config/schema.js';
import type { Hub } from '../../hub/create-hub.js';
import type { BotActivity } from '../bots/index.js';
import type { CallTracker } from '../relay/call-tracker.js';
import type { CallAdmission, LossWatcher } from '../relay/index.js';
import type { ViewIndexes } from '../search/index.js';
import type { AgentSession, AuditSink, SessionUpstreams } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';
import type { GatewaySanitizer, ViewCache } from '../views/index.js';

/** The bots as the gateway serves them (G8): their tools, their skills as prompts, who reaches which (activity resources). */
export type BotSurface = { readonly tools: BotTools; readonly prompts: BotPrompts; readonly roster: BotRoster };

/** What the request kinds share. */
export type CallPath = {
  /** The config in force. */
  readonly config: () => AppConfig;
  /** Status of servers, for "the owner is down" answers, and the shared connections. */
  readonly hub: Pick<Hub, 'upstream' | 'getServer'>;
  readonly views: ViewCache;
  /** The search indexes of the views in search mode (issue 24). */
  readonly toolSearch: ViewIndexes;
  readonly upstreams: SessionUpstreams;
  readonly tracker: CallTracker;
  /** The in-flight caps every relayed request passes (ADR 022). */
  readonly admission: CallAdmission;
  readonly losses: LossWatcher;
  readonly sanitizer: GatewaySanitizer;
  readonly audit: AuditSink | null;
  readonly sessions: SessionRegistry;
  /** The bot tools and prompts, served beside the view's own items; null: none. */
  readonly bots: BotSurface | null;
  /** The bots' recent activity, read as `boternity://bots/{slug}/activity` (issue 18); null with no bots. */
  readonly activity: BotActivity | null;
  /** Settles when every enabled server in the session's view has left `connecting`, or the bound passed. */
  readonly serversSettled: (session: AgentSession) => Promise<void>;
  /** Whether the service is stopping: new requests are refused (`server shutting down`). */
  readonly stopping: () => boolean;
  /** Where our own failures are logged (the agent only gets `internal error`). */
  readonly log: Logger;
  /**
   * The last listing made from each view listing with bot items added: the same array while
   * neither part changed, so the audit hashes it and the transport serializes it once.
   */
  readonly listings: WeakMap<
    readonly unknown[],
    { readonly bot: readonly unknown[]; readonly key: string; readonly items: unknown[] }
  >;
  /** The JSON Schema validator every agent session's SDK `Server` shares. */
  readonly schemaValidator: jsonSchemaValidator;
  /** Traces on (issue 21): a SERVER span per agent request, guard steps and CLIENT spans under it; null: off. */
  readonly tracer: Tracer | null;
};
