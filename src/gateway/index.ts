/**
 * The entry of src/gateway/ (part `gateway` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */

export { isBotEvent } from './bots/index.js';
export type { Gateway } from './create-gateway.js';
export { createGateway } from './create-gateway.js';
export { createServersSettled } from './session/index.js';
export { sweepIdleSessions } from './sweep-idle-sessions.js';
