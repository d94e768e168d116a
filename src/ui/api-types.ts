/**
 * The API's types as the page sees them, inferred from the zod schemas that validate the
 * requests and generate the OpenAPI document (`src/http/*`), and the MCP SDK's own types for
 * what the catalog routes pass through. Type-only imports: no server code reaches the bundle.
 * @module
 */
import type { z } from '@hono/zod-openapi';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ChatEvent, ChatInputSchema } from '../bots/chat-schemas.js';
import type { AddMemoryInputSchema } from '../bots/memory-schemas.js';
import type { HubEvent, HubEventType } from '../events/hub-event.js';
import type { AuditQuerySchema, EntrySchema } from '../http/audit-routes.js';
import type {
  BotDetailSchema,
  BotSamplingSchema,
  BotViewInputSchema,
  ChatHistorySchema,
  ChatSessionSchema,
  MemorySchema,
  PermissionEditSchema,
  SkillSchema,
  WorkflowSchema,
} from '../http/bot-api-schemas.js';
import type { CallBodySchema, CallToolResultSchema } from '../http/call-tool-route.js';
import type { CredentialSchema } from '../http/credentials-routes.js';
import type { PresetSchema } from '../http/presets-routes.js';
import type { PinnedFieldsSchema, QuarantineSchema, QuarantinesSchema } from '../http/quarantines-routes.js';
import type { StderrLinesSchema } from '../http/server-actions-routes.js';
import type { NewServerSchema, ServerSchema } from '../http/server-schemas.js';
import type { CreateTokenSchema, NewTokenSchema, TokenSchema } from '../http/tokens-routes.js';
import type { ServerStatus } from '../hub/server-status.js';

/** A server as `/api/servers` answers it: status and masked config. */
export type Server = z.infer<typeof ServerSchema>;
/** The body of `POST /api/servers`. */
export type NewServer = z.input<typeof NewServerSchema>;
/** A server's status as the event stream's snapshot carries it. */
export type { ServerStatus };
/** A bundled preset. */
export type Preset = z.infer<typeof PresetSchema>;
/** The body of a test-tool call, and its result. */
export type ToolCall = z.input<typeof CallBodySchema>;
export type ToolCallResult = z.infer<typeof CallToolResultSchema>;
/** A stdio server's stderr tail. */
export type StderrLines = z.infer<typeof StderrLinesSchema>;
/** A held tool, the texts a pin covers, and the list with the policy in force. */
export type Quarantine = z.infer<typeof QuarantineSchema>;
export type PinnedFields = z.infer<typeof PinnedFieldsSchema>;
export type Quarantines = z.infer<typeof QuarantinesSchema>;
/** An audit row, and the filters as the query string carries them. */
export type AuditEntry = z.infer<typeof EntrySchema>;
export type AuditQuery = z.input<typeof AuditQuerySchema>;
/** Tokens: a new one's request and answer (shown once), and one as listed. */
export type NewTokenRequest = z.input<typeof CreateTokenSchema>;
export type NewToken = z.infer<typeof NewTokenSchema>;
export type Token = z.infer<typeof TokenSchema>;
/** A keystore entry as listed: its name only (values are write-only). */
export type Credential = z.infer<typeof CredentialSchema>;
/** What a connected server offers, as the MCP SDK types it (the catalog routes pass it through). */
export type { Prompt, Resource, ResourceTemplate, Tool };
/** An event of `/api/events`: a bus event with the instant it was published. */
export type LiveEvent = HubEvent & { readonly at: string };
export type { HubEventType };
/** The first event of the stream. */
export type Snapshot = { servers: ServerStatus[] };
/** A bot as `/api/bots` shows it: its profile, its view, the servers it sees. */
export type Bot = z.infer<typeof BotDetailSchema>;
/** A bot's view as the config file holds it, the body that replaces it, and an allow/deny edit. */
export type BotView = NonNullable<Bot['view']>;
export type BotViewInput = z.input<typeof BotViewInputSchema>;
export type PermissionEdit = z.input<typeof PermissionEditSchema>;
/** A bot's memories, skills, workflows and sampling spend. */
export type Memory = z.infer<typeof MemorySchema>;
export type NewMemory = z.input<typeof AddMemoryInputSchema>;
export type Skill = z.infer<typeof SkillSchema>;
export type Workflow = z.infer<typeof WorkflowSchema>;
export type BotSampling = z.infer<typeof BotSamplingSchema>;
/** A chat turn's request and the events it streams. */
export type ChatInput = z.input<typeof ChatInputSchema>;
export type { ChatEvent };
/** A bot's chat session as listed, and one session's history (its messages, oldest first). */
export type ChatSession = z.infer<typeof ChatSessionSchema>;
export type ChatHistory = z.infer<typeof ChatHistorySchema>;
/** The one error shape of `/api`. */
export type ApiErrorBody = { error: { code: string; message: string; issues?: { field: string; message: string }[] } };

// ---- bots: profile, servers
// (end of bots)

// ---- memories, skills, workflows
// (end of content)

// ---- server settings
// (end of settings)

// ---- resources, prompts, completion
/** A resource's contents as read, a prompt's messages as got, an argument's suggestions, and their requests. */
export type ResourceContents = z.infer<typeof import('../http/read-resource-route.js').ResourceContentsSchema>;
export type ReadResourceResult = z.infer<typeof import('../http/read-resource-route.js').ReadResourceResultSchema>;
export type GetPromptResult = z.infer<typeof import('../http/get-prompt-route.js').GetPromptResultSchema>;
export type PromptMessage = z.infer<typeof import('../http/get-prompt-route.js').PromptMessageSchema>;
export type CompleteRequest = z.input<typeof import('../http/complete-route.js').CompleteBodySchema>;
export type CompleteResult = z.infer<typeof import('../http/complete-route.js').CompleteResultSchema>;
// (end of catalog)

// ---- tool inventory
// (end of inventory)

// ---- tool calls
// (end of tools)

// ---- audit
// (end of audit)
