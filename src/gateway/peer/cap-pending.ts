/**
 * The cap on requests an upstream connection has waiting on agents (X8): sampling,
 * elicitation and roots are each relayed with an hour to be answered (a person may be
 * behind an elicitation), so without a cap one call could pile up pending requests, each
 * audited and holding memory, without end. The excess is refused at once, never relayed,
 * with one warning per burst (until the connection's pending requests drain), not one a request.
 * @module
 */
import type { Logger } from 'pino';
import { PeerRequestCapError } from '../../errors.js';

/** Requests one upstream connection may have waiting on agents at once. */
export const MAX_PENDING_PEER_REQUESTS = 16;

/** Counts pending requests by connection key; `run` refuses over the cap, else runs `work` counted. */
export type PendingCap = {
  run<T>(key: string, server: string, method: string, work: () => Promise<T>): Promise<T>;
};

/** A cap of `limit` pending requests per connection, warning on `log`. */
export function capPending(log: Logger, limit = MAX_PENDING_PEER_REQUESTS): PendingCap {
  const pending = new Map<string, number>();
  const warned = new Set<string>();
  return {
    async run(key, server, method, work) {
      const count = pending.get(key) ?? 0;
      if (count >= limit) {
        if (!warned.has(key)) {
          warned.add(key);
          log.warn({ server, method, limit }, 'upstream requests over the cap of pending requests refused');
        }
        throw new PeerRequestCapError(server, limit);
      }
      pending.set(key, count + 1);
      try {
        return await work();
      } finally {
        const left = (pending.get(key) ?? 1) - 1;
        if (left > 0) pending.set(key, left);
        else {
          pending.delete(key);
          warned.delete(key);
        }
      }
    },
  };
}
