/**
 * MCP 2026-07-28 on every replica (issue 22 part 5, ADR 044): in cluster mode, the
 * `subscriptions/listen` streams hear every replica's view events (topic `modern.listen`),
 * and, with `BOTERNITY_CLUSTER_KEY`, an `input_required` retry is taken by any replica
 * (topic `modern.flows`; the states are authenticated with a key derived from the cluster
 * key). On SQLite (no fleet bus) nothing here runs.
 * @module
 */
import { hkdfSync } from 'node:crypto';
import type { FleetBus } from '../cluster/index.js';
import { type FlowMessage, fleetFlows, type InputFlows } from '../gateway/modern/index.js';
import type { ListenFleet, ListenMessage } from '../http/mcp/index.js';
import { CLUSTER_KEY_ENV } from './open-sealing.js';

const LISTEN_TOPIC = 'modern.listen';
const FLOWS_TOPIC = 'modern.flows';

/** What the modern era takes from the fleet. */
export type ModernFleet = {
  readonly listen: ListenFleet;
  /** Null without a cluster key: a state is then valid on its own replica only. */
  readonly flows: ((local: InputFlows) => InputFlows) | null;
};

/** The modern era's fleet over `bus`; null on SQLite. */
export function openModernFleet(env: NodeJS.ProcessEnv, bus: FleetBus | null): ModernFleet | null {
  if (!bus) return null;
  const listen: ListenFleet = {
    publish: (message) => void bus.publish(LISTEN_TOPIC, message).catch(() => undefined),
    subscribe: (handler) => bus.subscribe(LISTEN_TOPIC, ({ payload, self }) => handler(payload as ListenMessage, self)),
  };
  const clusterKey = env[CLUSTER_KEY_ENV]?.trim();
  if (!clusterKey) return { listen, flows: null };
  const key = Buffer.from(hkdfSync('sha256', clusterKey, 'boternity', 'mcp request state v1', 32));
  const link = {
    replica: bus.replica,
    key,
    publish: (message: FlowMessage) => bus.publish(FLOWS_TOPIC, message),
    subscribe: (handler: (message: FlowMessage) => void) =>
      bus.subscribe(FLOWS_TOPIC, ({ payload }) => handler(payload as FlowMessage)),
  };
  return { listen, flows: (local) => fleetFlows(local, link) };
}
