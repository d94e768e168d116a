/**
 * Types shared by the statecharts and their adapters. Pure data: no I/O, nothing from src/.
 * @module
 */

/** Reconnect backoff policy (SPEC S2). `maxAttempts` absent means retry forever. */
export type BackoffPolicy = {
  readonly baseMs: number;
  readonly factor: number;
  readonly capMs: number;
  /** Fraction of the delay that is randomised away: 0.2 gives a delay in [0.8·d, d]. */
  readonly jitter: number;
  /** A connection that stays up this long resets the attempt counter. */
  readonly resetAfterMs: number;
  readonly maxAttempts?: number | undefined;
};

/**
 * What the machines need to know about a configured server. The hub passes the full
 * validated server config, which is structurally a superset of this.
 */
export type ServerSpec = {
  readonly enabled: boolean;
  readonly backoff: BackoffPolicy;
  readonly healthIntervalMs: number;
  readonly pingTimeoutMs: number;
  /** How long the ping of a liveness check (a call met silence) may take before the connection is dropped. */
  readonly livenessTimeoutMs: number;
  readonly connectTimeoutMs: number;
};

/** A failure reduced to what can be shown and persisted. */
export type ErrorInfo = {
  readonly message: string;
  readonly code?: string | undefined;
  /** For code `needs_authorization`: the authorization server the upstream names (issue 23). */
  readonly authorizationServer?: string | undefined;
};

/** Counts of what an upstream offers. */
export type CatalogCounts = {
  readonly toolCount: number;
  readonly resourceCount: number;
  readonly resourceTemplateCount: number;
  readonly promptCount: number;
};

/** Kinds of catalog entries an upstream lists. */
export type CatalogKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** Names added, removed and changed in one catalog kind. */
export type CatalogDiff = {
  readonly kind: CatalogKind;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
};

/**
 * The summary of a live upstream session, returned by `connectUpstream`. Adapters may
 * return a richer object; the machine treats it as opaque apart from these fields.
 */
export type UpstreamHandle = {
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly pid: number | null;
  readonly connectedAt: number;
  readonly counts: CatalogCounts;
};

/** Result of one health ping. */
export type PingResult = { readonly latencyMs: number; readonly at: number };

/** Names of the connection machine's top-level states (S1). */
export type ConnectionStateName =
  | 'connecting'
  | 'connected'
  | 'reconnecting'
  | 'needs_authorization'
  | 'disabled'
  | 'removed';

/**
 * Facts about one server, each emitted exactly once per occurrence (S5). The hub adds
 * timestamps and publishes them on the bus.
 */
export type ServerEvent =
  | { readonly type: 'connecting'; readonly server: string; readonly attempt: number }
  | ({
      readonly type: 'connected';
      readonly server: string;
      readonly attempt: number;
      readonly transport: UpstreamHandle['transport'];
      readonly pid: number | null;
    } & CatalogCounts)
  | {
      readonly type: 'reconnecting';
      readonly server: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly error: ErrorInfo | null;
    }
  /** The upstream wants an OAuth authorization: no retry until one is given (issue 23). */
  | {
      readonly type: 'needs_authorization';
      readonly server: string;
      readonly authorizationServer: string | null;
      readonly error: ErrorInfo | null;
    }
  | { readonly type: 'disabled'; readonly server: string; readonly reason: 'config' | 'manual' | 'exhausted' }
  | { readonly type: 'removed'; readonly server: string }
  | ({
      readonly type: 'catalog_changed';
      readonly server: string;
      readonly changes: readonly CatalogDiff[];
    } & CatalogCounts)
  | { readonly type: 'health'; readonly server: string; readonly latencyMs: number; readonly at: number };
