/**
 * The entry of src/http/ (part `http` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */

export type { HttpServer } from './serve-http.js';
export { listenHttp } from './serve-http.js';
