/**
 * Names of the bots' MCP tools and prompts (SPEC G8): `{verb}__{slug}` tools and
 * `{slug}__{skill}` prompts, kept within MCP's and LLM APIs' 64 characters of
 * `[A-Za-z0-9_-]`. A longer name keeps its first 55 characters and gets `_` and 8 hex digits
 * of the SHA-256 of the whole name, the same rule as the gateway's public names.
 * @module
 */
import { createHash } from 'node:crypto';

/** The per-bot tools, by verb. */
export const PER_BOT_VERBS = ['chat', 'get_memories', 'add_memory', 'list_skills'] as const;
export type PerBotVerb = (typeof PER_BOT_VERBS)[number];

/** The tools that name no bot in their name. */
export const SHARED_TOOLS = ['list_bots', 'get_bot', 'create_bot', 'delete_bot', 'trigger_workflow'] as const;
export type SharedTool = (typeof SHARED_TOOLS)[number];

const MAX = 64;
const HASH = 8;

/** `name` if it fits in 64 characters, else shortened with a hash suffix (deterministic). */
export function fitName(name: string): string {
  if (name.length <= MAX) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH);
  return `${name.slice(0, MAX - HASH - 1)}_${hash}`;
}

/** The tool name of `verb` for bot `slug`, e.g. `chat__scout`. */
export const botToolName = (verb: PerBotVerb, slug: string): string => fitName(`${verb}__${slug}`);

/** The prompt name of a skill on `/mcp`, e.g. `scout__summarize`. */
export const skillPromptName = (slug: string, skill: string): string => fitName(`${slug}__${skill}`);
