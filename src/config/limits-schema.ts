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
