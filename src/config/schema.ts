/**
 * The config file `boternity.json` (SPEC C1, C2): a superset of the `mcpServers` format of
 * Claude Desktop, Cursor and VS Code. Defaults live here, not in constants elsewhere.
 * @module
 */
import { z } from 'zod';
import { DatabaseSchema } from './database-schema.js';
import { FleetLimitsSchema, InFlightSchema, RateLimitSchema } from './limits-schema.js';
import { ReplicasSchema } from './replicas-schema.js';
import { TelemetrySchema } from './telemetry-schema.js';
import * as Tools from './tool-schemas.js';

/** Reconnect backoff (S2): exponential with jitter, capped, forever unless `maxAttempts`. */
export const BackoffSchema = z
  .object({
    baseMs: z.number().int().positive().default(500),
    factor: z.number().min(1).default(2),
    capMs: z.number().int().positive().default(30_000),
    jitter: z.number().min(0).max(1).default(0.2),
    resetAfterMs: z.number().int().nonnegative().default(10_000),
    maxAttempts: z.number().int().positive().optional(),
  })
  .strict();
export type Backoff = z.infer<typeof BackoffSchema>;
const ToolNames = z.array(z.string().min(1));

/**
 * How many notifications a server may send (issue 17): a token bucket per connection, `burst` at once, refilled at
 * `perSecond`; the excess is dropped and counted, and the server marked as flooding. Re-lists after `list_changed` are
 * spaced `relistMinIntervalMs` apart; a stdio server's output is read at most `floodReadBytesPerSecond` while it drops.
 */
export const NotificationRateSchema = z
  .object({
    perSecond: z.number().positive().default(50),
    burst: z.number().int().positive().default(200),
    relistMinIntervalMs: z.number().int().nonnegative().default(250),
    floodReadBytesPerSecond: z.number().int().positive().default(1_048_576),
  })
  .strict();
export type NotificationRate = z.infer<typeof NotificationRateSchema>;

/** Fields every server entry accepts, whatever its transport. */
const CommonFields = {
  enabled: z.boolean().default(true),
  preset: z.string().min(1).optional(),
  allowedTools: ToolNames.optional(),
  deniedTools: ToolNames.optional(),
  credentialKey: z.string().min(1).optional(),
  samplingBudgetTokens: z.number().int().nonnegative().optional(),
  sampling: z.enum(['client', 'bot', 'deny']).optional(),
  scope: z.enum(['shared', 'session']).default('shared'),
  healthIntervalMs: z.number().int().positive().default(30_000),
  pingTimeoutMs: z.number().int().positive().default(10_000),
  /** A relayed request with no answer and no progress this long triggers a liveness check (X8). */
  livenessCheckAfterMs: z.number().int().positive().default(2_000),
  /** The liveness check's ping timeout: a connection that fails it goes reconnecting at once. */
  livenessTimeoutMs: z.number().int().positive().default(2_000),
  connectTimeoutMs: z.number().int().positive().default(30_000),
  requestTimeoutMs: z.number().int().positive().default(60_000),
  timeouts: Tools.ToolTimeoutsSchema.optional(),
  toolOverrides: Tools.ToolOverridesSchema.optional(),
  /** Requests in flight to this server at once, overriding `limits.inFlight.perUpstream` (ADR 022). */
  maxConcurrentRequests: z.number().int().positive().optional(),
  /** The largest message sent to the server, as JSON (X8): a larger request is refused unsent. */
  maxMessageBytes: z.number().int().positive().default(4_194_304),
  /**
   * The largest message read from the server (X8): an answer over it is not read, its request
   * is aborted and the call fails naming the bound. 10 MiB: what stdio servers always had.
   */
  maxAnswerBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  backoff: BackoffSchema.prefault({}),
  notificationRate: NotificationRateSchema.prefault({}),
};

/** Text handed to a child process: with a NUL byte every spawn would fail, forever. */
const ProcessText = z.string().refine((text) => !text.includes('\0'), 'must not contain a NUL character (\\u0000)');

/** A header name that `fetch` accepts (an HTTP token): anything else fails every request. */
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid HTTP header name');
/** A header value that `fetch` accepts: no NUL, CR or LF. */
const HeaderValue = z.string().refine((text) => !/[\0\r\n]/.test(text), 'must not contain NUL, CR or LF');

/** A server launched as a child process speaking MCP over stdin/stdout. */
export const StdioServerSchema = z.object({
  ...CommonFields,
  type: z.literal('stdio').optional(),
  command: ProcessText.min(1),
  args: z.array(ProcessText).default([]),
  env: z.record(ProcessText, ProcessText).default({}),
  cwd: ProcessText.min(1).optional(),
});

/** A remote server: Streamable HTTP (`http`), legacy HTTP+SSE (`sse`), or `auto`-detected. */
export const RemoteServerSchema = z.object({
  ...CommonFields,
  type: z.enum(['http', 'sse', 'auto']).default('auto'),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  headers: z.record(HeaderName, HeaderValue).default({}),
  /**
   * A client registered with the upstream's authorization server by hand (issue 23), used when
   * it offers neither client ID metadata documents nor dynamic registration; `scopes` also
   * narrows what is asked for. The secret is a keystore entry's name, never the secret.
   */
  oauth: z
    .object({
      clientId: z.string().min(1).optional(),
      clientSecretKey: z.string().min(1).optional(),
      scopes: z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'not a valid OAuth scope')).optional(),
    })
    .strict()
    .optional(),
});

export type StdioServerConfig = z.infer<typeof StdioServerSchema> & { readonly transport: 'stdio' };
export type RemoteServerConfig = z.infer<typeof RemoteServerSchema> & { readonly transport: 'http' | 'sse' | 'auto' };
/** One validated server entry; `transport` is derived from `type`/`command`/`url`. */
export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** Per-server allow/deny lists of tool names for a bot. */
export const ToolPermissionSchema = z.object({ allowed: ToolNames.optional(), denied: ToolNames.optional() }).strict();

/** A bot's view of the servers (B2). */
export const BotConfigSchema = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  additionalServers: z.array(z.string()).default([]),
  removedServers: z.array(z.string()).default([]),
  toolPermissions: z.record(z.string(), ToolPermissionSchema).default({}),
  toolSearch: Tools.ToolSearchModeSchema.optional(),
});
export type BotConfig = z.infer<typeof BotConfigSchema>;

/** Everything in the file except `mcpServers`, whose entries are parsed one by one. */
export const ConfigRestSchema = z.object({
  bots: z
    .record(
      z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'bot slugs are lowercase letters, digits and -'),
      BotConfigSchema,
    )
    .default({}),
  limits: z
    .object({
      perClient: RateLimitSchema.optional(),
      global: RateLimitSchema.optional(),
      inFlight: InFlightSchema.prefault({}),
      fleet: FleetLimitsSchema.prefault({}),
    })
    .strict()
    .prefault({}),
  logs: z.object({ stderrLines: z.number().int().positive().default(500) }).prefault({}),
  shutdown: z.object({ graceMs: z.number().int().nonnegative().default(3_000) }).prefault({}),
  /** `bnity serve`'s own process: `tuneProcess` tunes V8 for a long-running service (ADR 030). */
  runtime: z
    .object({ tuneProcess: z.boolean().default(true) })
    .strict()
    .prefault({}),
  telemetry: TelemetrySchema.prefault({}),
  /** Where the tables live: a PostgreSQL URL, else the SQLite file (ADR 036). */
  database: DatabaseSchema.prefault({}),
  /** Cluster mode's replicas: heartbeat, staleness, the run-once jobs' leader (ADR 041). */
  replicas: ReplicasSchema.prefault({}),
  timeouts: Tools.GatewayTimeoutsSchema.prefault({}),
  /** Names besides the loopback ones that may appear in `Host` and `Origin` (X2). */
  http: z
    .object({
      allowedHosts: z.array(z.string().min(1)).default([]),
      allowedOrigins: z.array(z.string().min(1)).default([]),
      /** The largest request body `/api` accepts (413 above it). */
      maxBodyBytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      /**
       * Bytes an SSE stream (`/mcp` GET and POST streams, `subscriptions/listen`, `/api/events`)
       * may hold that its client has not taken: a client that stops reading is let go past it (X8).
       */
      maxUnsentBytesPerStream: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
    })
    .strict()
    .prefault({}),
  /** Audit (X7): how long rows are kept, and whether raw payloads are stored besides their hashes. */
  audit: z
    .object({
      retentionDays: z.number().int().positive().default(30),
      /** The audit's table and indexes are kept under this many bytes, oldest rows deleted first. */
      maxBytes: z
        .number()
        .int()
        .min(1024 * 1024)
        .default(512 * 1024 * 1024),
      storePayloads: z.boolean().default(false),
      /** Notifications no agent receives are counted, one row per server and type for each window this long. */
      undeliveredWindowMs: z.number().int().positive().default(60_000),
    })
    .strict()
    .prefault({}),
  /**
   * Rug-pull pins (X5): `strict` hides a changed tool until approved; `warn` only reports.
   * The rest bounds `tool_pins`: texts kept for review, pins of gone tools and removed
   * servers forgotten, a cap per server, and a server whose catalog churns summarized.
   */
  pins: z
    .object({
      policy: z.enum(['strict', 'warn']).default('strict'),
      textMaxChars: z.number().int().min(100).max(100_000).default(2_000),
      forgetGoneToolAfterMs: z
        .number()
        .int()
        .positive()
        .default(7 * 24 * 60 * 60 * 1000),
      forgetRemovedServerAfterMs: z
        .number()
        .int()
        .positive()
        .default(7 * 24 * 60 * 60 * 1000),
      maxPerServer: z.number().int().positive().default(5_000),
      churnMaxChanges: z.number().int().positive().default(30),
      churnWindowMs: z.number().int().min(1_000).default(60_000),
    })
    .strict()
    .prefault({}),
  /** Sanitizer (X4): how long descriptions and tool results may be. */
  sanitize: z
    .object({
      descriptionMaxLength: z.number().int().positive().default(500),
      resultMaxLength: z.number().int().positive().default(100_000),
    })
    .strict()
    .prefault({}),
  /**
   * Agent sessions idle `sessionIdleMs` are closed, with their own upstream connections (G6);
   * a session's first list waits at most `firstListWaitMs` for its servers to connect.
   */
  gateway: z
    .object({
      sessionIdleMs: z
        .number()
        .int()
        .positive()
        .default(30 * 60_000),
      firstListWaitMs: z.number().int().nonnegative().default(10_000),
      /** The largest request body `/mcp` accepts (X8): 413 above it. */
      maxBodyBytes: z
        .number()
        .int()
        .positive()
        .default(4 * 1024 * 1024),
      /** Agent sessions over HTTP on the whole service (X8; ADR 014 says why these defaults). */
      maxSessions: z.number().int().positive().default(2_000),
      /** Agent sessions over HTTP per token (the admin counts as one): its oldest idle one goes first. */
      maxSessionsPerToken: z.number().int().positive().default(100),
      /** The resumption buffer of one session, in bytes of event data (oldest events dropped first). */
      maxBufferBytesPerSession: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      /** Every session's resumption buffer together, in bytes (the oldest events of all go first). */
      maxBufferBytes: z
        .number()
        .int()
        .positive()
        .default(256 * 1024 * 1024),
      /**
       * How long an upstream's sampling, elicitation or roots request, sent to an MCP
       * 2026-07-28 client as `input_required`, waits for the client's retry (ADR 013).
       */
      /** Tool search for large catalogs (issue 24): a mode, or the object of tool-schemas.ts. */
      toolSearch: Tools.GatewayToolSearchSchema,
      inputRequestTimeoutMs: z
        .number()
        .int()
        .positive()
        .default(5 * 60_000),
    })
    .strict()
    .prefault({}),
});

/** The validated config the rest of the code takes. */
export type AppConfig = z.infer<typeof ConfigRestSchema> & {
  readonly mcpServers: Readonly<Record<string, ServerConfig>>;
};

/** Server names become tool prefixes and URL segments: keep them to a safe alphabet. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$/;
