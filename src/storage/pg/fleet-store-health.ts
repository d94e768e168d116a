/**
 * Whether the fleet's shared counters (ADR 042) may be asked now. Every statement of the
 * rate limits and the session count runs through {@link FleetStoreHealth.run}: one that
 * fails or takes longer than `timeoutMs` marks the store down, which logs one warning; while
 * it is down, statements are refused at once (their callers fall back to this replica's own
 * counters) and one statement every `retryMs` probes it; the first that succeeds logs that
 * the fleet-wide limits are back. So an outage costs a call at most one `timeoutMs`, and the
 * log one line, not one per request.
 * @module
 */
import type { Logger } from 'pino';
import { DatabaseError } from '../../errors.js';

/** Settings of {@link createFleetStoreHealth}. */
export type FleetStoreHealthOptions = {
  log: Pick<Logger, 'warn' | 'info'>;
  /** Read at each statement (hot reload): how long one may take, how long to wait before probing again. */
  settings: () => { timeoutMs: number; retryMs: number };
  now?: () => number;
};

/** The gate in front of the fleet's shared counters. */
export type FleetStoreHealth = {
  /** Run `statement`, or reject at once while the store is down and no probe is due. */
  run<T>(statement: () => Promise<T>): Promise<T>;
  /** False from the first failure until a statement succeeds again. */
  up(): boolean;
};

/** A healthy gate. */
export function createFleetStoreHealth({ log, settings, now = Date.now }: FleetStoreHealthOptions): FleetStoreHealth {
  let down = false;
  let retryAt = 0;
  let probing = false;
  const refused = () => Promise.reject(new DatabaseError('the fleet store is unavailable: this replica counts alone'));
  const failed = (error: unknown) => {
    retryAt = now() + settings().retryMs;
    if (down) return;
    down = true;
    log.warn(
      { err: error },
      'the database does not answer the fleet-wide limits: each replica now applies the rate limits and session caps alone, until it answers again',
    );
  };
  return {
    async run(statement) {
      if (down && (probing || now() < retryAt)) return refused();
      const probe = down;
      if (probe) probing = true;
      const { timeoutMs } = settings();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DatabaseError(`the fleet store did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      try {
        const result = await Promise.race([statement(), late]);
        if (down) {
          down = false;
          log.info('the database answers again: rate limits and session caps count across the fleet again');
        }
        return result;
      } catch (error) {
        failed(error);
        throw error;
      } finally {
        clearTimeout(timer);
        if (probe) probing = false;
      }
    },
    up: () => !down,
  };
}
