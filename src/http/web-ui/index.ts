/**
 * The entry of src/http/web-ui/ (part `http-web-ui` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export type { UiAssets } from './ui-assets.js';
export { uiRoutes } from './ui-routes.js';
