/**
 * The API's types as the page sees them, inferred from the zod schemas that validate the
 * requests and generate the OpenAPI document (`src/http/*`), and the MCP SDK's own types for
 * what the catalog routes pass through. Type-only imports: no server code reaches the bundle.
 * @module
 */
import type { z } from '@hono/zod-openapi';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ChatEvent, ChatInputSchema } from '../bots/chat-schemas.js';
import type { AddMemoryInputSchema, UpdateMemoryInputSchema } from '../bots/memory-schemas.js';
import type { SaveSkillInputSchema, SkillArgumentSchema } from '../bots/skill-schemas.js';
import type { SaveWorkflowInputSchema, WorkflowStepSchema } from '../bots/workflow-schemas.js';
import type { HubEvent, HubEventType } from '../events/hub-event.js';
import type {
  AuditPageSchema,
  AuditQuerySchema,
  BotDetailSchema,
  BotSamplingSchema,
  BotViewInputSchema,
  CallBodySchema,
  CallToolResultSchema,
  ChatHistorySchema,
  ChatSessionSchema,
  CreateTokenSchema,
  CredentialSchema,
  EntrySchema,
  MemorySchema,
  NewServerSchema,
  NewTokenSchema,
  PermissionEditSchema,
  PinnedFieldsSchema,
  PresetSchema,
  QuarantineSchema,
  QuarantinesSchema,
  ServerSchema,
  SkillSchema,
  StderrLinesSchema,
  TokenSchema,
  WorkflowRunSchema,
  WorkflowSchema,
} from '../http/api/index.js';
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
export type Snapshot = {
  servers: ServerStatus[];
  /** The replica whose connections these are (ADR 041; every replica names itself, on SQLite too). */
  replica?: string | null;
};
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
/** The bodies of `POST /api/bots` and `PATCH /api/bots/{slug}` (null clears an optional field). */
export type NewBot = z.input<typeof import('../bots/bot-schemas.js').CreateBotInputSchema>;
export type BotPatch = z.input<typeof import('../bots/bot-schemas.js').UpdateBotInputSchema>;
// (end of bots)

// ---- memories, skills, workflows
/** A memory's change, a skill's and a workflow's body (their name is the path's), a run's answer. */
export type MemoryChange = z.input<typeof UpdateMemoryInputSchema>;
export type SkillInput = Omit<z.input<typeof SaveSkillInputSchema>, 'name'>;
export type SkillArgument = z.input<typeof SkillArgumentSchema>;
export type WorkflowInput = Omit<z.input<typeof SaveWorkflowInputSchema>, 'name'>;
export type WorkflowStep = z.input<typeof WorkflowStepSchema>;
export type WorkflowRun = z.infer<typeof WorkflowRunSchema>;
/** The push events a run publishes (issue 19): its start, each step's end, its end. */
export type WorkflowEvent = Extract<
  LiveEvent,
  { type: 'workflow_started' | 'workflow_step_finished' | 'workflow_finished' }
>;
// (end of content)

// ---- server settings
/** The body of `PATCH /api/servers/{name}`: the fields changed; `null` removes one (its default applies). */
export type ServerPatch = { [K in Exclude<keyof NewServer, 'name'>]?: NewServer[K] | null };
/** One refusal of the API, with the field it names (`issues[].field`). */
export type FieldIssue = { field: string; message: string };
/** A settings save: the server as it is now, or the API's refusal with its fields. */
export type SettingsSaved =
  | { ok: true; server: Server }
  | { ok: false; status: number; message: string; issues: FieldIssue[] };
// (end of settings)

// ---- resources, prompts, completion
/** A resource's contents as read, a prompt's messages as got, an argument's suggestions, and their requests. */
export type ResourceContents = z.infer<typeof import('../http/api/index.js').ResourceContentsSchema>;
export type ReadResourceResult = z.infer<typeof import('../http/api/index.js').ReadResourceResultSchema>;
export type GetPromptResult = z.infer<typeof import('../http/api/index.js').GetPromptResultSchema>;
export type PromptMessage = z.infer<typeof import('../http/api/index.js').PromptMessageSchema>;
export type CompleteRequest = z.input<typeof import('../http/api/index.js').CompleteBodySchema>;
export type CompleteResult = z.infer<typeof import('../http/api/index.js').CompleteResultSchema>;
// (end of catalog)

// ---- tool inventory
// (end of inventory)

// ---- tool calls
/** A test-tool call's answer: the result and how long it took (ms). */
export type ToolCallAnswer = z.infer<typeof import('../http/api/index.js').CallAnswerSchema>;
/** A progress notification of a call, as the streamed test-tool call carries it. */
export type ToolCallProgress = { progress: number; total?: number; message?: string };
// (end of tools)

// ---- audit
/** A page of the audit log and the cursor of the next (older) one. */
export type AuditLog = z.infer<typeof AuditPageSchema>;
// (end of audit)
