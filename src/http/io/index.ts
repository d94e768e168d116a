/**
 * The entry of src/http/io/ (part `http-io` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export { closeAfterLinger } from './close-after-linger.js';
export { matchesEtag } from './matches-etag.js';
export { readJsonBody } from './read-json-body.js';
export type { PoolLease, SseBufferPool } from './sse-buffer-pool.js';
export { createSseBufferPool } from './sse-buffer-pool.js';
export type { SseStreamLabel, SseWriteGuard } from './sse-write-guard.js';
export { createSseWriteGuard } from './sse-write-guard.js';
export type { RpcRefusal } from './write-json.js';
export { writeJson, writeRefusal } from './write-json.js';
