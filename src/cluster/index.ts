/**
 * Cluster mode (issue 22, ADR 040): the fleet bus over PostgreSQL LISTEN/NOTIFY, the replica's
 * id, and the desired config kept in the database. Loaded only on PostgreSQL.
 * @module
 */
export { type ConfigVersion, latestConfigVersion } from './config-version-repo.js';
export { CONFIG_TOPIC, createDesiredConfig, type DesiredConfig } from './create-desired-config.js';
export { createFleetBus, type FleetBus, type FleetMessage, type SubscribeOptions } from './fleet-bus.js';
export { replicaId } from './replica-id.js';
export { type SeededConfig, seedDesiredConfig } from './seed-desired-config.js';
export { DATABASE_CONFIG, type WrittenConfig, writeConfigVersion } from './write-config-version.js';
