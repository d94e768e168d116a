/**
 * The config of tools (issue 24): `gateway.toolSearch` and a bot's `toolSearch` mode
 * (in search mode an agent's `tools/list` is three meta-tools, `search_tools`,
 * `describe_tools`, `call_tool`, plus the tools marked `alwaysLoad`); tool-call timeouts
 * (a server entry's `timeouts`, the gateway's default `timeouts`); a server entry's
 * `toolOverrides`.
 * @module
 */
import { z } from 'zod';

/** `off`: the full list; `on`: the meta-tools; `auto`: the meta-tools once the full list is over the threshold. */
export const ToolSearchModeSchema = z.enum(['off', 'on', 'auto']);
export type ToolSearchMode = z.infer<typeof ToolSearchModeSchema>;

/** The gateway's setting; a bot's own `toolSearch` (a mode) wins over `mode`, a token's (`tokens`) over both. */
export const ToolSearchSchema = z
  .object({
    mode: ToolSearchModeSchema.default('off'),
    /** `auto` turns search on above this many estimated tokens of tool definitions (JSON characters / 4). */
    autoThresholdTokens: z.number().int().positive().default(20_000),
    /** A token's own mode, by token id (`bnity token list`) or `admin`: wins over its bot's and the gateway's. */
    tokens: z.record(z.string().min(1), ToolSearchModeSchema).default({}),
    /** Tools listed in search mode too, by server and the upstream's own tool name. */
    alwaysLoad: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
    /** Tools `search_tools` returns when the agent gives no `limit`; it may ask up to `maxResults`. */
    defaultResults: z.number().int().min(1).max(100).default(10),
    maxResults: z.number().int().min(1).max(200).default(50),
  })
  .strict();
export type ToolSearch = z.infer<typeof ToolSearchSchema>;

/** `gateway.toolSearch` (SPEC section 7): a mode alone (`"auto"`), or the whole object. */
export const GatewayToolSearchSchema = z
  .preprocess((value) => (typeof value === 'string' ? { mode: value } : value), ToolSearchSchema)
  .prefault({});

/** A time limit in ms: at least 1 ms, at most a day (a longer one is a mistake, not a limit). */
const Ms = z
  .number()
  .int()
  .min(1)
  .max(24 * 60 * 60 * 1000);

/** A server's tool-call limits: `perTool` (by the upstream's own name) wins over `callMs`. */
export const ToolTimeoutsSchema = z
  .object({
    callMs: Ms.optional(),
    perTool: z.record(z.string().min(1), Ms).default({}),
    /** A progress notification from the upstream starts the limit again. */
    resetOnProgress: z.boolean().optional(),
    /** The most a request may take in all, progress or not (default the gateway's). */
    maxTotalMs: Ms.optional(),
  })
  .strict();
export type ToolTimeouts = z.infer<typeof ToolTimeoutsSchema>;

/** The gateway's default for servers that set no `timeouts.callMs` (else their `requestTimeoutMs`). */
export const GatewayTimeoutsSchema = z
  .object({
    callMs: Ms.optional(),
    resetOnProgress: z.boolean().default(true),
    /** Progress restarts a limit, never this one: an upstream reporting progress cannot hold a call for ever (G4). */
    maxTotalMs: Ms.default(60 * 60 * 1000),
  })
  .strict();

/** What an operator changes of one upstream tool, by its upstream name. */
export const ToolOverrideSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a tool name is 1 to 64 letters, digits, _ . or -')
      .optional(),
    title: z.string().min(1).optional(),
    description: z.string().min(1).optional(),
    hidden: z.boolean().optional(),
  })
  .strict();
export const ToolOverridesSchema = z.record(z.string().min(1), ToolOverrideSchema);
