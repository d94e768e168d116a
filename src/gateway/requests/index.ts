/**
 * The entry of src/gateway/requests/ (part `gateway-requests` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export type { BotSurface, CallPath } from './call-path.js';
export { callTool } from './call-tool.js';
export { complete } from './complete.js';
export { finishRequest, wireErrorOf } from './finish-request.js';
export { getPrompt } from './get-prompt.js';
export type { InProcessRequests } from './in-process-requests.js';
export { createInProcessRequests } from './in-process-requests.js';
export { listItems } from './list-items.js';
export { NO_AGENT } from './no-agent.js';
export { readResource } from './read-resource.js';
export { sanitizeElicitation, sanitizeSampling, sanitizeUpstreamText } from './sanitize-requests.js';
export type { ViewSearch } from './search-mode.js';
export { searchView } from './search-mode.js';
export { setLevel } from './set-level.js';
export { subscribeResource, unsubscribeResource } from './subscribe-resource.js';
export type { ParamsSchema } from './wire-error.js';
export { answerFailure, invalidParams, toWireError, WireError } from './wire-error.js';
