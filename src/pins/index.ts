/**
 * Rug-pull pins (SPEC X5): the part's surface. `createPinGuard` pins each tool on first
 * sight, quarantines a changed one, and keeps `tool_pins` bounded; the rest of the folder is
 * its own business.
 * @module
 */
export { createPinGuard, type PinGuard, type PinGuardDeps, type PinPolicy, type PinSettings } from './pin-guard.js';
