/**
 * The entry of src/gateway/peer/ (part `gateway-peer` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */

export type { SamplingBudget } from './sampling-budget.js';
export { createSamplingBudget } from './sampling-budget.js';
export type { UndeliveredTally } from './undelivered-tally.js';
export { createUndeliveredTally } from './undelivered-tally.js';
export type { SamplingRoute } from './upstream-peer.js';
export { createUpstreamPeer } from './upstream-peer.js';
