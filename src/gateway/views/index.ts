/**
 * The entry of src/gateway/views/ (part `gateway-views` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export type { Route } from './aggregate.js';
export { namingOf, viewServers } from './compute-view.js';
export { configSecrets } from './config-secrets.js';
export type { ViewSpec } from './effective-servers.js';
export { effectiveServers } from './effective-servers.js';
export type { GatewaySanitizer } from './gateway-sanitizer.js';
export { createGatewaySanitizer } from './gateway-sanitizer.js';
export { notifyListChanges } from './notify-list-changes.js';
export type { Naming } from './public-names.js';
export { toPublicName } from './public-names.js';
export type { ServedView, ViewCache } from './view-cache.js';
export { createViewCache } from './view-cache.js';
