/**
 * Tool search (issue 24): the `toolSearch` section, a bot's `toolSearch` mode, and a server
 * entry's `timeouts`. In search mode an agent's `tools/list` is three meta-tools
 * (`search_tools`, `describe_tools`, `call_tool`) plus the tools marked `alwaysLoad`.
 * @module
 */
import { z } from 'zod';

/** `off`: the full list; `on`: the meta-tools; `auto`: the meta-tools once the full list is over the threshold. */
export const ToolSearchModeSchema = z.enum(['off', 'on', 'auto']);
export type ToolSearchMode = z.infer<typeof ToolSearchModeSchema>;

/** The gateway's setting; a bot's own `toolSearch` (a mode) wins over `mode`. */
export const ToolSearchSchema = z
  .object({
    mode: ToolSearchModeSchema.default('off'),
    /** `auto` turns search on above this many estimated tokens of tool definitions (JSON characters / 4). */
    autoThresholdTokens: z.number().int().positive().default(20_000),
    /** Tools listed in search mode too, by server and the upstream's own tool name. */
    alwaysLoad: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
    /** Tools `search_tools` returns when the agent gives no `limit`; it may ask up to `maxResults`. */
    defaultResults: z.number().int().min(1).max(100).default(10),
    maxResults: z.number().int().min(1).max(200).default(50),
  })
  .strict();
export type ToolSearch = z.infer<typeof ToolSearchSchema>;
