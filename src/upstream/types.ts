/**
 * The ports between the hub, real MCP upstreams and the gateway. `src/upstream/` implements
 * them over the SDK client; nothing outside `src/upstream/` touches that client.
 * @module
 */
import type {
  CallToolRequest,
  CallToolResult,
  ClientCapabilities,
  CompleteRequest,
  CompleteResult,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  GetPromptRequest,
  GetPromptResult,
  Implementation,
  ListRootsRequest,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageNotification,
  Progress,
  Prompt,
  ReadResourceRequest,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { CatalogDiff, UpstreamHandle } from '../../machines/index.js';

/** Everything an upstream lists (S7), after pagination. */
export type Catalog = {
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
};

/** A bounded log of a stdio child's stderr lines (S6). */
export type StderrLog = {
  readonly lines: () => readonly string[];
};

/** Called whenever an upstream's catalog is re-listed after `list_changed`. */
export type CatalogListener = (catalog: Catalog, changes: readonly CatalogDiff[]) => void;

/** How one relayed request is sent: the caller's signal, the server's timeout, progress back. */
export type UpstreamRequestOptions = {
  readonly signal?: AbortSignal | undefined;
  readonly timeout?: number | undefined;
  /** Each progress notification restarts the timeout. */
  readonly resetTimeoutOnProgress?: boolean | undefined;
  /** Given only when the caller asked for progress: the upstream is then asked for it too. */
  readonly onprogress?: ((progress: Progress) => void) | undefined;
  /** The span of the agent request relayed (tracing on): the upstream request is its CLIENT child (issue 21). */
  readonly trace?: Context | null | undefined;
};

/**
 * An upstream session as the hub lends it (and as a `scope: "session"` connection is
 * handed to the gateway): its description and its requests, never the SDK client. A
 * request the upstream fails rejects with its `McpError`, as the SDK gives it.
 */
export type UpstreamSession = {
  readonly serverId: string;
  /**
   * How it is reached. Over `http` a request's own response stream carries what the server
   * sends for it (the call tracker attributes by the async context); over stdio and SSE one
   * stream carries everything.
   */
  readonly transport: 'stdio' | 'http' | 'sse';
  /** The stdio child's pid; null for remote upstreams. */
  readonly pid: number | null;
  /** The current catalog; replaced on every `list_changed`. */
  catalog(): Catalog;
  /** Resolves once, when the session ends for any reason (crash, close, network). */
  readonly closed: Promise<{ error: Error | null }>;
  capabilities(): ServerCapabilities | undefined;
  serverInfo(): Implementation | undefined;
  instructions(): string | undefined;
  callTool(params: CallToolRequest['params'], options?: UpstreamRequestOptions): Promise<CallToolResult>;
  readResource(params: ReadResourceRequest['params'], options?: UpstreamRequestOptions): Promise<ReadResourceResult>;
  getPrompt(params: GetPromptRequest['params'], options?: UpstreamRequestOptions): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params'], options?: UpstreamRequestOptions): Promise<CompleteResult>;
  subscribe(uri: string, options?: UpstreamRequestOptions): Promise<void>;
  unsubscribe(uri: string, options?: UpstreamRequestOptions): Promise<void>;
  setLoggingLevel(level: LoggingLevel, options?: UpstreamRequestOptions): Promise<void>;
  /** Tell the upstream that the roots it may ask for changed. */
  rootsChanged(): Promise<void>;
  /**
   * A request met silence (no answer, no progress): check the connection now (X8). The
   * hub's connection asks its actor (a short ping; failed: `reconnecting`); a connection
   * of its own pings and, failing, closes. Never throws; repeated calls while one runs are cheap.
   */
  checkLiveness(): void;
};

/** A session that its holder also ends: the hub's own, or a `scope: "session"` connection. */
export type OwnedUpstream = UpstreamSession & {
  /**
   * Ends the session and, for stdio, the whole process tree: SIGTERM, then SIGKILL after
   * `graceMs`. Idempotent; resolves when no process of it remains.
   */
  close(): Promise<void>;
};

/** A connected upstream session as the connection actor holds it. */
export type LiveUpstream = UpstreamHandle &
  OwnedUpstream & {
    /** Stderr of the stdio child (empty for remote upstreams). */
    readonly stderr: StderrLog;
    /** Starts watching list_changed notifications; returns a function that stops it. */
    watchCatalog(listener: CatalogListener): () => void;
    /** Ping with a timeout; resolves with the round trip in ms. */
    ping(timeoutMs: number, signal?: AbortSignal): Promise<number>;
    /** Hear {@link UpstreamSession.checkLiveness} (the connection actor); returns a function that stops it. */
    onLivenessCheck(listener: () => void): () => void;
  };

/**
 * The downstream side of every upstream session (G6): the capabilities declared to the
 * upstream, and what answers its requests and hears its notifications. The gateway
 * implements it; without one a client declares nothing and answers nothing. A request it
 * refuses rejects with an error carrying a numeric JSON-RPC `code`, which the upstream gets.
 */
export type UpstreamPeer = {
  readonly capabilities: ClientCapabilities;
  createMessage(
    server: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  elicit(server: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  listRoots(server: string, params: ListRootsRequest['params'], signal: AbortSignal): Promise<ListRootsResult>;
  logged(server: string, params: LoggingMessageNotification['params']): Promise<void>;
  resourceUpdated(server: string, uri: string): void;
};

/** Records stdio children so a later run can end those a crash left behind (S6). */
export type ProcessLedger = {
  recordSpawn(entry: { serverId: string; pid: number; startTime: string }): Promise<void>;
  recordExit(pid: number): Promise<void>;
};
