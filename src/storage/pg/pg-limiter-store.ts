/**
 * Rate-limit counters every replica shares (issue 22 part 6, ADR 042): rate-limiter-flexible's
 * `RateLimiterPostgres` on the service's own postgres.js pool, through a `pg`-shaped client
 * of a few lines (`query({ text, values })` → `{ rows, rowCount }`), on the `rate_limits`
 * table the migrations made (`tableCreated: true`: the library never runs DDL). Each
 * statement goes through the fleet store's health gate; a refused or failed one makes the
 * library answer from the limiter's `insuranceLimiter` (this replica's memory).
 * @module
 */

import type { Sql } from 'postgres';
import { type IRateLimiterStoreOptions, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { FleetStoreHealth } from './fleet-store-health.js';

/** The table of the counters (`pg-fleet-schema.ts`). */
export const RATE_LIMITS_TABLE = 'rate_limits';
/** Counters whose window ended this long ago are deleted by {@link PgLimiterStore.sweep} (the library's own hour). */
const KEEP_EXPIRED_MS = 60 * 60_000;

/** What a limiter over the shared store is made with. */
export type SharedLimiterOptions = Pick<
  IRateLimiterStoreOptions,
  'keyPrefix' | 'points' | 'duration' | 'insuranceLimiter'
>;

/** Limiters over the shared table, and the sweep of its dead windows. */
export type PgLimiterStore = {
  limiter(options: SharedLimiterOptions): RateLimiterPostgres;
  /** Delete the counters whose window ended an hour ago or more. */
  sweep(): Promise<void>;
};

/** The store on `sql`, every statement gated by `health`. */
export function createPgLimiterStore({ sql, health }: { sql: Sql; health: FleetStoreHealth }): PgLimiterStore {
  // The library's statements are fixed text with $n parameters: prepared once per connection.
  const client = {
    query: ({ text, values }: { text: string; values?: unknown[] }) =>
      health.run(async () => {
        const rows = await sql.unsafe(text, (values ?? []) as never[], { prepare: true });
        return { rows, rowCount: rows.count };
      }),
  };
  return {
    limiter: (options) =>
      new RateLimiterPostgres({
        ...options,
        storeClient: client,
        storeType: 'client',
        tableName: RATE_LIMITS_TABLE,
        tableCreated: true,
        // One sweep per replica (below), not one timer per limiter, rebuilt at every reload.
        clearExpiredByTimeout: false,
      }),
    sweep: async () => {
      await health
        .run(() => sql`delete from ${sql(RATE_LIMITS_TABLE)} where expire < ${Date.now() - KEEP_EXPIRED_MS}`)
        .catch(() => undefined);
    },
  };
}
