/**
 * The bots' limits and timeouts, with their defaults (SPEC B4, X8). A zod schema so the
 * config file can carry them (`bots` settings) once the service wires the bots in.
 * @module
 */
import { z } from 'zod';

/** Limits of chat, workflows and providers; every field has a default. */
export const BotLimitsSchema = z
  .object({
    /** Longest chat message accepted, in characters. */
    maxMessageChars: z.number().int().positive().default(32_000),
    /** Provider calls that may ask for tools in one chat turn; the turn ends after them. */
    maxToolRounds: z.number().int().positive().default(8),
    /** Earlier messages of a session sent to the provider with a new one. */
    historyMessages: z.number().int().positive().default(200),
    /** Newest memories put in the system prompt. */
    memoriesInPrompt: z.number().int().nonnegative().default(50),
    /** One provider call, whole (the `openai` client's timeout). */
    providerTimeoutMs: z.number().int().positive().default(120_000),
    /** Retries of a provider call that could not connect or got a 408/429/5xx. */
    providerMaxRetries: z.number().int().nonnegative().default(2),
    /** A workflow step that has not answered by then fails (a step may set its own). */
    stepTimeoutMs: z.number().int().positive().default(60_000),
  })
  .strict();

/** Validated limits. */
export type BotLimits = z.infer<typeof BotLimitsSchema>;

/** The limits with every default, overridden by `overrides`. */
export function botLimits(overrides: Partial<BotLimits> = {}): BotLimits {
  return BotLimitsSchema.parse(overrides);
}
