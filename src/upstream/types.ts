/**
 * The port between the hub and real MCP upstreams. `hub/` wires these into the
 * connection machine's injected actors; nothing else touches the SDK client directly.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
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

/** A connected upstream session. Owned by the connection actor that opened it. */
export type LiveUpstream = UpstreamHandle & {
  readonly serverId: string;
  readonly client: Client;
  /** The current catalog; replaced on every `list_changed`. */
  catalog(): Catalog;
  /** Stderr of the stdio child (empty for remote upstreams). */
  readonly stderr: StderrLog;
  /** Resolves once, when the session ends for any reason (crash, close, network). */
  readonly closed: Promise<{ error: Error | null }>;
  /** Starts watching list_changed notifications; returns a function that stops it. */
  watchCatalog(listener: CatalogListener): () => void;
  /** Ping with a timeout; resolves with the round trip in ms. */
  ping(timeoutMs: number, signal?: AbortSignal): Promise<number>;
  /**
   * Ends the session and, for stdio, the whole process tree: SIGTERM, then SIGKILL after
   * `graceMs`. Idempotent; resolves when no process of it remains.
   */
  close(): Promise<void>;
};

/**
 * The downstream side of an upstream session: the capabilities declared to the upstream
 * (sampling, elicitation, roots) and the handlers that relay its requests and
 * notifications to the agents. The gateway provides it; without one the client declares
 * nothing and answers nothing.
 */
export type UpstreamPeer = {
  readonly capabilities: ClientCapabilities;
  /** Register request and notification handlers on a new client, before it connects. */
  attach(serverId: string, client: Client): void;
};

/** Records stdio children so a later run can end those a crash left behind (S6). */
export type ProcessLedger = {
  recordSpawn(entry: { serverId: string; pid: number; startTime: string }): Promise<void>;
  recordExit(pid: number): Promise<void>;
};
