/**
 * The entry of src/http/perimeter/ (part `http-perimeter` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */

export type { EndpointRule, PerimeterRefusal } from './admit-request.js';
export {
  CSRF_HEADER,
  createPerimeter,
  isRefusal,
  nodeRequestOf,
  PERIMETER_ANSWERS,
  rpcRefusalOf,
  writePerimeterRefusal,
} from './admit-request.js';
export { createBodyBudget, holdBody } from './body-budget.js';
export { errorReply, httpAnswerOf, toErrorResponse } from './http-errors.js';
export { limitBody } from './limit-body.js';
export type { RateLimiter, SharedLimiters } from './rate-limit.js';
export { createRateLimiter, requestIdOf } from './rate-limit.js';
export { requireOrigin } from './require-origin.js';
export { adminOnly, requireToken } from './require-token.js';
