/**
 * Cluster mode's replicas (issue 22 parts 7–9, ADR 041): identity, heartbeat, each server's
 * state per replica, the run-once jobs' leader and the fleet view.
 * @module
 */
export { holdLeadership, LEADER_LOCK, type Leadership, soleLeadership } from './hold-leadership.js';
export { type ClusterReplica, type ClusterServer, type ClusterView, readCluster } from './read-cluster.js';
export { recordReplicaServers } from './record-replica-servers.js';
export { REPLICA_ID_ENV, replicaIdFor } from './replica-id.js';
export { replicaVersion } from './replica-version.js';
export { type Heartbeat, startHeartbeat } from './start-heartbeat.js';
