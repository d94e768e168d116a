/**
 * The config's limits (X3, ADR 022): the rate limits and the in-flight caps `limits` holds.
 * @module
 */
import { z } from 'zod';

/** `{ requests: N, perSeconds: S }` (X3). */
export const RateLimitSchema = z
  .object({ requests: z.number().int().positive(), perSeconds: z.number().positive() })
  .strict();

/**
 * Requests relayed to upstreams at once (ADR 022): per upstream connection, per token over
 * all upstreams, and how many of a token's may wait for a place before it is refused.
 */
export const InFlightSchema = z
  .object({
    perUpstream: z.number().int().positive().default(32),
    perToken: z.number().int().positive().default(64),
    queuePerToken: z.number().int().nonnegative().default(64),
    /** Requests with large arguments (over 64 Ki characters) in flight on one upstream connection at once. */
    largePerUpstream: z.number().int().positive().default(1),
    /** Bytes of request bodies (each over 64 KiB) one token may have in the service at once; over it a POST is refused unread. */
    bodyBytesPerToken: z
      .number()
      .int()
      .positive()
      .default(16 * 1024 * 1024),
  })
  .strict();

/**
 * How replicas on one PostgreSQL share the limits (ADR 042; ignored on SQLite). A statement
 * on the shared counters that takes longer than `storeTimeoutMs` or fails puts the replica on
 * its own counters (one warning) until a probe, every `retryMs`, succeeds. Each replica
 * refreshes its open sessions' rows every `sessionHeartbeatMs`; rows of a replica silent for
 * three heartbeats stop counting against the session caps.
 */
export const FleetLimitsSchema = z
  .object({
    storeTimeoutMs: z.number().int().positive().default(2_000),
    retryMs: z.number().int().positive().default(5_000),
    sessionHeartbeatMs: z.number().int().positive().default(10_000),
  })
  .strict();
