/**
 * `GET /api/cluster` (issue 22 part 8, ADR 041): the fleet view, read from the database every
 * replica writes its heartbeat and its servers' states to; any replica answers the same
 * (`replica` and `self` say which did). On SQLite it shows the one replica.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { ClusterView } from '../../cluster/index.js';
import { createApi, errorResponses, jsonResponse } from './api-schemas.js';

const ClusterServerSchema = z.object({
  name: z.string(),
  state: z.string().openapi({ description: 'As the replica last wrote it: connecting, connected, reconnecting, …' }),
  attempt: z.number().int(),
  lastError: z.string().nullable(),
  pid: z.number().int().nullable().openapi({ description: "The stdio child's pid on that replica's host" }),
  toolCount: z.number().int(),
  updatedAt: z.string(),
});

const ClusterReplicaSchema = z
  .object({
    id: z.string(),
    status: z.enum(['alive', 'stale', 'stopped']).openapi({
      description:
        '`stale`: no heartbeat for `replicas.staleAfterMs` (killed, hung or cut off); `stopped`: a clean stop',
    }),
    self: z.boolean().openapi({ description: 'The replica that answered' }),
    leader: z.boolean().openapi({ description: 'Runs the run-once jobs (audit retention, pin upkeep)' }),
    version: z.string(),
    address: z.string().nullable(),
    startedAt: z.string(),
    lastHeartbeat: z.string(),
    heartbeatAgeMs: z.number(),
    stoppedAt: z.string().nullable(),
    servers: z.array(ClusterServerSchema),
  })
  .openapi('ClusterReplica');

const ClusterSchema = z
  .object({
    replica: z.string().openapi({ description: 'The replica that answered' }),
    database: z.enum(['postgres', 'sqlite']),
    leader: z.string().nullable(),
    replicas: z.array(ClusterReplicaSchema),
  })
  .openapi('Cluster');

const view = createRoute({
  method: 'get',
  path: '/',
  tags: ['cluster'],
  summary: 'The fleet: every replica, its heartbeat, version, leadership and each server on it',
  responses: { 200: jsonResponse('The fleet view', ClusterSchema), ...errorResponses() },
});

/** Routes mounted at `/api/cluster`. */
export function clusterRoutes({ read }: { read: () => Promise<ClusterView> }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(view, async (c) => c.json(await read(), 200));
  return routes;
}
