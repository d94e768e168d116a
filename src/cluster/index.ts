/**
 * Cluster mode (issue 22, ADRs 040, 041): the fleet bus over PostgreSQL LISTEN/NOTIFY, the
 * desired config kept in the database; the replicas' identity, heartbeat, each server's state
 * per replica, the run-once jobs' leader and the fleet view.
 * @module
 */
export { type ConfigVersion, latestConfigVersion } from './config-version-repo.js';
export { CONFIG_CATCH_UP_MS, CONFIG_TOPIC, createDesiredConfig, type DesiredConfig } from './create-desired-config.js';
export { createFleetBus, type FleetBus, type FleetMessage, type SubscribeOptions } from './fleet-bus.js';
export { holdLeadership, LEADER_LOCK, type Leadership, soleLeadership } from './hold-leadership.js';
export { liveReplicas } from './live-replicas.js';
export { type ClusterReplica, type ClusterServer, type ClusterView, readCluster } from './read-cluster.js';
export { recordReplicaServers } from './record-replica-servers.js';
export { processId, REPLICA_ID_ENV, replicaIdFor } from './replica-id.js';
export { replicaVersion } from './replica-version.js';
export { type SeededConfig, seedDesiredConfig } from './seed-desired-config.js';
export { BOT_EVENTS_TOPIC, BOTS_TOPIC, type ShareLocalBusOptions, shareLocalBus } from './share-local-bus.js';
export { PINS_TOPIC, type SharePinsOptions, sharePins } from './share-pins.js';
export {
  FORGOTTEN_TOPIC,
  REVOKED_TOPIC,
  type SharedRevocations,
  shareRevocations,
} from './share-revocations.js';
export { assertReplicaIdFree, type Heartbeat, startHeartbeat } from './start-heartbeat.js';
export { DATABASE_CONFIG, type WrittenConfig, writeConfigVersion } from './write-config-version.js';
