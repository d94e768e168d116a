/**
 * The entry of src/gateway/modern/ (part `gateway-modern` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export { type FlowMessage, type FlowsLink, fleetFlows } from './fleet-flows.js';
export { createInputFlows, type InputFlows } from './input-flows.js';
export type { ModernViewOptions } from './open-modern-view.js';
export type { ModernView } from './serve-modern-view.js';
export { serveModernView } from './serve-modern-view.js';
