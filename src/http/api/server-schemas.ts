/**
 * Request and response schemas of `/api/servers` (SPEC A1, section 7). A request names only
 * fields of a boternity server entry (an unknown field is refused, naming it) with their JSON
 * types; what the values mean is then checked by the config file's own parser on the whole
 * edited file, so the API and the file can never disagree.
 * @module
 */
import { z } from '@hono/zod-openapi';
import { NewServerName } from './api-schemas.js';

const StringMap = z.record(z.string(), z.string());
const ToolNames = z.array(z.string().min(1));
const Millis = z.number().int().positive();

/** The fields of a server entry as written in `boternity.json` (defaults apply when absent). */
export const SERVER_ENTRY_SHAPE = {
  type: z.enum(['stdio', 'http', 'streamable-http', 'sse', 'auto']).optional(),
  command: z.string().min(1).optional().openapi({ example: 'npx' }),
  args: z
    .array(z.string())
    .optional()
    .openapi({ example: ['-y', '@modelcontextprotocol/server-memory'] }),
  env: StringMap.optional(),
  cwd: z.string().min(1).optional(),
  url: z.string().min(1).optional().openapi({ example: 'https://example.com/mcp' }),
  headers: StringMap.optional(),
  preset: z.string().min(1).optional().openapi({ example: 'filesystem' }),
  enabled: z.boolean().optional(),
  allowedTools: ToolNames.optional(),
  deniedTools: ToolNames.optional(),
  credentialKey: z.string().min(1).optional(),
  oauth: z
    .object({
      clientId: z.string().min(1).optional(),
      clientSecretKey: z.string().min(1).optional(),
      scopes: z.array(z.string().min(1)).optional(),
    })
    .strict()
    .optional()
    .openapi({ description: 'A pre-registered OAuth client (issue 23); the secret is a keystore name' }),
  samplingBudgetTokens: z.number().int().nonnegative().optional(),
  sampling: z.enum(['client', 'bot', 'deny']).optional(),
  scope: z.enum(['shared', 'session']).optional(),
  healthIntervalMs: Millis.optional(),
  pingTimeoutMs: Millis.optional(),
  livenessCheckAfterMs: Millis.optional(),
  livenessTimeoutMs: Millis.optional(),
  connectTimeoutMs: Millis.optional(),
  requestTimeoutMs: Millis.optional(),
  timeouts: z
    .object({
      callMs: Millis.optional(),
      perTool: z.record(z.string(), Millis).optional(),
      resetOnProgress: z.boolean().optional(),
      maxTotalMs: Millis.optional(),
    })
    .strict()
    .optional()
    .openapi({
      description: 'Tool-call time limits (SPEC D2): `perTool` by the upstream tool name wins over `callMs`',
      example: { callMs: 30_000, perTool: { slow_report: 300_000 }, resetOnProgress: true },
    }),
  toolOverrides: z
    .record(
      z.string(),
      z
        .object({
          name: z.string().optional(),
          title: z.string().optional(),
          description: z.string().optional(),
          hidden: z.boolean().optional(),
        })
        .strict(),
    )
    .optional()
    .openapi({
      description: "What agents see of a tool, by the upstream's own name (SPEC D3)",
      example: { search: { name: 'web_search', description: 'Search the web.' }, debug_dump: { hidden: true } },
    }),
  maxConcurrentRequests: z.number().int().positive().optional(),
  maxMessageBytes: z.number().int().positive().optional(),
  maxAnswerBytes: z.number().int().positive().optional(),
  backoff: z
    .object({
      baseMs: Millis.optional(),
      factor: z.number().min(1).optional(),
      capMs: Millis.optional(),
      jitter: z.number().min(0).max(1).optional(),
      resetAfterMs: z.number().int().nonnegative().optional(),
      maxAttempts: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  notificationRate: z
    .object({
      perSecond: z.number().positive().optional(),
      burst: z.number().int().positive().optional(),
      relistMinIntervalMs: z.number().int().nonnegative().optional(),
      floodReadBytesPerSecond: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
};

/** `command`, `url` or `preset`: a server entry needs one of them to be launched. */
function needsLaunch(
  entry: { command?: string | undefined; url?: string | undefined; preset?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (entry.command === undefined && entry.url === undefined && entry.preset === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['command'],
      message: 'needs "command" (stdio), "url" (http/sse) or "preset"',
    });
  }
}

/** A whole server entry (`PUT`). */
export const ServerEntrySchema = z.object(SERVER_ENTRY_SHAPE).strict().superRefine(needsLaunch).openapi('ServerEntry');

/** A new server (`POST /api/servers`): an entry plus its name; `{"name","preset","args","env"}` is one such entry. */
export const NewServerSchema = z
  .object({ name: NewServerName, ...SERVER_ENTRY_SHAPE })
  .strict()
  .superRefine(needsLaunch)
  .openapi('NewServer', {
    example: { name: 'fs', preset: 'filesystem', args: ['/srv/files'] },
  });

/** A partial update (`PATCH`): the fields given replace the entry's; a field set to null is removed. */
export const ServerPatchSchema = z
  .object(
    Object.fromEntries(
      Object.entries(SERVER_ENTRY_SHAPE).map(([key, schema]) => [key, schema.unwrap().nullable().optional()]),
    ) as Record<string, z.ZodOptional<z.ZodNullable<z.ZodType>>>,
  )
  .strict()
  .openapi('ServerPatch', { example: { deniedTools: ['write_file'] } });

// A server object's config fields; `enabled` and `samplingBudgetTokens` are status fields there.
const { enabled: _enabled, samplingBudgetTokens: _budget, ...CONFIG_FIELDS } = SERVER_ENTRY_SHAPE;

/** A server's status (section 7 fields first) with its masked config entry and sampling use. */
export const ServerSchema = z
  .object({
    name: z.string(),
    transport: z.enum(['stdio', 'http', 'sse', 'auto']),
    state: z.enum(['connecting', 'connected', 'reconnecting', 'needs_authorization', 'disabled']),
    attempt: z.number().int(),
    lastError: z.string().nullable(),
    nextRetryAt: z.string().nullable(),
    toolCount: z.number().int(),
    resourceCount: z.number().int(),
    promptCount: z.number().int(),
    pid: z.number().int().nullable(),
    resourceTemplateCount: z.number().int(),
    enabled: z.boolean(),
    connectedAt: z.string().nullable(),
    lastPingAt: z.string().nullable(),
    pingLatencyMs: z.number().nullable(),
    nextDelayMs: z.number().nullable(),
    disabledReason: z.enum(['config', 'manual', 'exhausted']).nullable(),
    flooding: z.boolean(),
    droppedNotifications: z.number().int(),
    authorizationServer: z.string().nullable().openapi({
      description: 'In needs_authorization: the OAuth authorization server the upstream names (issue 23)',
    }),
    samplingUsedTokens: z.number(),
    samplingBudgetTokens: z.number().nullable(),
    catalogChurning: z.boolean().openapi({
      description:
        'Its tools change more than `pins.churnMaxChanges` times in `pins.churnWindowMs`: their quarantines are summarized once per window (`catalog_churn`), and its new tools held',
    }),
    replica: z.string().nullable().openapi({
      description:
        'The replica this status is of (cluster mode: each replica runs its own stdio processes and upstream connections; `GET /api/cluster` shows them all)',
    }),
  })
  .extend(CONFIG_FIELDS)
  .openapi('Server', {
    description: 'Status and config; env and header values, URL passwords and secret-looking arguments are masked',
  });

/** `{ "server": Server }`. */
export const OneServerSchema = z.object({ server: ServerSchema });
