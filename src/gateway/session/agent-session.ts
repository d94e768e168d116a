/**
 * One agent session on the gateway and everything it owns: how it is reached, its view,
 * its resource subscriptions and (for `scope: "session"` servers) its own upstream
 * connections. The session registry holds them all; nothing else keeps a session.
 * @module
 */
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  ListRootsRequest,
  ListRootsResult,
  LoggingLevel,
  ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { BotToolsAccess } from '../../bots/ports.js';
import type { OwnedUpstream } from '../../upstream/types.js';
import type { Naming, ViewSpec } from '../views/index.js';

/** How long, and under which signal, boternity waits for an agent's answer. */
export type AgentRequestOptions = { readonly signal: AbortSignal; readonly timeout: number };

/**
 * How boternity reaches an agent: the requests an upstream may make of it (G6) and
 * notifications. Over MCP each request has its own channel (its response stream) and the
 * session one for everything else; a bot calling in-process brings its own.
 */
export type AgentChannel = {
  /** What the agent declared it can answer. */
  clientCapabilities(): ClientCapabilities | undefined;
  createMessage(
    params: CreateMessageRequest['params'],
    options: AgentRequestOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  elicit(params: ElicitRequest['params'], options: AgentRequestOptions): Promise<ElicitResult>;
  listRoots(params: ListRootsRequest['params'], options: AgentRequestOptions): Promise<ListRootsResult>;
  notify(notification: ServerNotification): Promise<void>;
};

/** Where a resource the agent subscribed to lives: its owner and the upstream's own URI. */
export type SubscribedResource = { readonly server: string; readonly uri: string };

/** The fingerprint of what a session was last shown, per kind (G5). */
export type ViewFingerprint = { readonly tools: string; readonly resources: string; readonly prompts: string };

/** A request being served: abort it with the reason it ends; `ended` settles once it has answered. */
export type InflightRequest = { readonly controller: AbortController; readonly ended: Promise<void> };

/** A live agent session. */
export type AgentSession = {
  readonly id: string;
  readonly spec: ViewSpec;
  readonly naming: Naming;
  /** Where it came in, for logs: `/mcp`, `/mcp/bots/x`, `stdio`, `bot:x`. */
  readonly label: string;
  /** Who opened it, for the audit: `admin`, a token id, or `stdio`. */
  readonly clientId: string | null;
  /** The client as it named itself (`clientInfo` as `name/version`), for the audit; null until known. */
  clientName: string | null;
  /** The bot whose view it is, for the audit; null for other views. */
  readonly bot: string | null;
  /** The bot's own session: its calls are the bot's (chat, workflows), with no agent behind them. */
  readonly ownBot: boolean;
  /** Who reaches the bot tools and skill prompts here, and on which endpoint; null: none served (G8). */
  readonly botAccess: BotToolsAccess | null;
  /** Who may use it by id (an HTTP opener's key); null when nobody reaches it by id. */
  readonly owner: string | null;
  /** The agent outside any request (over HTTP: the standalone stream). */
  readonly channel: AgentChannel;
  /** Public URIs the agent subscribed to, and where each routes. */
  readonly subscriptions: Map<string, SubscribedResource>;
  /** Upstream connections of this session alone (servers with `scope: "session"`). */
  readonly ownUpstreams: Map<string, Promise<OwnedUpstream>>;
  /** Requests in flight, each abortable with the reason it ends (see track-request.ts). */
  readonly requests: Set<InflightRequest>;
  /** What the agent was last shown, to tell whether a list changed. */
  fingerprint: ViewFingerprint | null;
  /** The logging level the agent asked for; its own connections opened later get it too. */
  loggingLevel: LoggingLevel | null;
  /** When the agent last sent something (see {@link lastActiveAt}). */
  lastActivity: number;
  /** Whether something open keeps it active now (a modern view's `subscriptions/listen` stream); null: nothing. */
  readonly activeNow: (() => boolean) | null;
  /** Settles when the session's first list may be answered; later lists find it settled. */
  firstList: Promise<void> | null;
  /** Whether the idle sweep may close it (not a stdio or in-process session). */
  readonly idles: boolean;
  /** End it: its transport, its subscriptions and its own upstream connections. Idempotent. */
  close(): Promise<void>;
};

/** When `session` was last active: now while something open keeps it so, else its agent's last message. */
export function lastActiveAt(session: AgentSession, now: number): number {
  return session.activeNow?.() ? now : session.lastActivity;
}
