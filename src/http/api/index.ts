/**
 * The entry of src/http/api/ (part `http-api` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export { API_BASE, createApiRoutes } from './api-routes.js';
export type { AuditPageSchema, AuditQuerySchema, EntrySchema } from './audit-routes.js';
export type {
  BotDetailSchema,
  BotSamplingSchema,
  BotViewInputSchema,
  ChatHistorySchema,
  ChatSessionSchema,
  MemorySchema,
  PermissionEditSchema,
  SkillSchema,
  WorkflowRunSchema,
  WorkflowSchema,
} from './bots/bot-api-schemas.js';
export type { BotDetail } from './bots/bot-detail.js';
export type { CallBodySchema, CallToolResultSchema } from './call-tool-route.js';
export { CallAnswerSchema } from './call-tool-route.js';
export { CompleteBodySchema, CompleteResultSchema } from './complete-route.js';
export type { CredentialSchema, CredentialStore } from './credentials-routes.js';
export { PUBLIC_DOCS_PATHS } from './docs-routes.js';
export { GetPromptResultSchema, PromptMessageSchema } from './get-prompt-route.js';
export type { AuthorizationStartSchema } from './oauth-routes.js';
export { redirectOf, uiOwnerOf } from './oauth-routes.js';
export type { PresetSchema } from './presets-routes.js';
export type {
  PinnedFieldsSchema,
  QuarantineSchema,
  QuarantinesAnswer,
  QuarantinesSchema,
} from './quarantines-routes.js';
export { ReadResourceResultSchema, ResourceContentsSchema } from './read-resource-route.js';
export type { ApprovePins, StderrLinesSchema } from './server-actions-routes.js';
export type { NewServerSchema, ServerSchema } from './server-schemas.js';
export type { SamplingUsage } from './server-view.js';
export type { CreateTokenSchema, NewTokenSchema, TokenSchema } from './tokens-routes.js';
