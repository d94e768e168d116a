/**
 * The boundary between the bots and the rest of the service (SPEC B4, G6, G8). The gateway
 * and the bots see each other only through these types, which `main.ts` builds and hands
 * to both: the bots call tools through {@link BotToolCaller}; the gateway serves
 * {@link BotTools} and {@link BotPrompts} and asks {@link AnswerSampling} for sampling.
 * @module
 */

import type {
  CallToolResult,
  CompleteResult,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  GetPromptResult,
  Progress,
  Prompt,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { BotEvent } from '../events/hub-event.js';
import type { Caller } from '../guard/caller.js';

/** What one tool call made for a bot may carry. */
export type BotToolCallOptions = {
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** The span of the bot's tool call (traces on, issue 21): the gateway's spans are its children. */
  trace?: Context | null;
};

/**
 * How a bot reaches MCP tools: the gateway's call path for the bot's view, so allow/deny,
 * quarantine, the sanitizer, rate limits and the audit (under the bot) apply to every call.
 * Names are the public names the view gives (`{server}__{tool}`).
 */
export type BotToolCaller = {
  /** The bot's effective tools. */
  listTools(slug: string): Promise<Tool[]>;
  /** Call one; a tool outside the view is refused by the implementation. */
  callTool(
    slug: string,
    name: string,
    args: Record<string, unknown>,
    options: BotToolCallOptions,
  ): Promise<CallToolResult>;
};

/** Where provider credentials come from (the keystore in production); null when absent. */
export type Credentials = { get(name: string): Promise<string | null> };

/**
 * A bot created or deleted (the bot tools and prompts changed), updated (its name or
 * description may be in the tools' descriptions), or its skills changed (the prompts).
 */
export type BotChange = { readonly kind: 'created' | 'updated' | 'deleted' | 'skills'; readonly slug: string };

/**
 * Where the bots' verbs publish their activity (issue 18): the service's event bus, which
 * feeds `/api/events` and the gateway's push to MCP sessions. Publishing never waits.
 */
export type BotEventSink = { publish(event: BotEvent): unknown };

/** Who asks for bot tools or prompts, and where: `bot` is set on `/mcp/bots/{slug}`. */
export type BotToolsAccess = { readonly caller: Caller; readonly bot?: string };

/** What one call of a bot tool gets besides its arguments. */
export type BotToolContext = BotToolsAccess & {
  readonly signal: AbortSignal;
  /** Present when the MCP caller gave a progress token: `chat__{slug}` reports as it works. */
  readonly onProgress?: (progress: Progress) => void;
};

/** A bot as an endpoint's summary names it. */
export type BotSummary = { readonly slug: string; readonly name: string; readonly description: string };

/** The bots served as MCP tools (G8). */
export type BotTools = {
  /** The tools this caller may see here, with annotations and input schemas. */
  list(access: BotToolsAccess): Promise<Tool[]>;
  /** The bots of the registry this caller reaches here, by slug (for the endpoint's instructions). */
  bots(access: BotToolsAccess): Promise<BotSummary[]>;
  /** Run one. Failures the caller should read are an `isError` result; a tool it may not call throws. */
  call(name: string, args: Record<string, unknown>, context: BotToolContext): Promise<CallToolResult>;
  /** Called after a bot is created or deleted; returns the unsubscribe function. */
  onChange(listener: (change: BotChange) => void): () => void;
};

/** The bots' skills served as MCP prompts (`{slug}__{skill}` on `/mcp`, `{skill}` on `/mcp/bots/{slug}`). */
export type BotPrompts = {
  list(access: BotToolsAccess): Promise<Prompt[]>;
  /** Render a skill with its arguments. */
  get(name: string, args: Record<string, string>, access: BotToolsAccess): Promise<GetPromptResult>;
  /** Values of a declared argument that start with `value`. */
  complete(
    name: string,
    argument: { name: string; value: string },
    access: BotToolsAccess,
  ): Promise<CompleteResult['completion']>;
};

/** The registry bots a caller reaches, by slug: the gateway serves each one's activity resource (issue 18). */
export type BotRoster = {
  /** The same array while no bot changes. */
  slugs(access: BotToolsAccess): Promise<readonly string[]>;
};

/** Tokens a provider call used. */
export type TokenUsage = { promptTokens: number; completionTokens: number; totalTokens: number };

/** A sampling request to be answered by a bot's provider; `server` is the upstream that asked. */
export type SamplingRequest = {
  slug: string;
  server: string | null;
  params: CreateMessageRequest['params'];
  signal?: AbortSignal;
};

/** The answer, and what it cost (`estimated` when the provider reported no usage). */
export type SamplingAnswer = {
  result: CreateMessageResult | CreateMessageResultWithTools;
  usage: TokenUsage & { estimated: boolean };
};

/** Answers `sampling/createMessage` with the bot's provider, charging the bot's budget (G6, X6). */
export type AnswerSampling = (request: SamplingRequest) => Promise<SamplingAnswer>;
