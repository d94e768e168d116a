/**
 * The entry of src/http/mcp/ (part `http-mcp` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export type { ListenFleet, ListenMessage } from './fleet-listen.js';
export { createMcpEndpoint, isMcpUrl } from './mcp-endpoint.js';
export { createSessionRestorer, type Sealing } from './restore-session.js';
export { createSessionSeal, type SessionSeal } from './sealed-session-id.js';
export type { RelayNote } from './session-relay.js';
