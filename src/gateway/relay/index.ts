/**
 * The entry of src/gateway/relay/ (part `gateway-relay` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */

export type { CallAdmission, ServerAdmission } from './call-admission.js';
export { createCallAdmission } from './call-admission.js';
export type { LossWatcher } from './loss-watch.js';
export { createLossWatch } from './loss-watch.js';
export type { Outcome } from './relay-request.js';
export { andThen, relayRequest, relayRouted } from './relay-request.js';
export { renewSubscriptions } from './renew-subscriptions.js';
