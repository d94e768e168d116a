/**
 * The config's `replicas` section (ADR 041): how often a replica writes its heartbeat, after
 * how long without one the fleet view calls it stale, and how often a replica that is not the
 * leader of the run-once jobs tries the leader's lock (PostgreSQL only).
 * @module
 */
import { z } from 'zod';

const Millis = z.number().int().positive();

export const ReplicasSchema = z
  .object({
    heartbeatMs: Millis.default(5_000),
    staleAfterMs: Millis.default(15_000),
    leaderRetryMs: Millis.default(2_000),
  })
  .strict();
