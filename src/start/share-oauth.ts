/**
 * OAuth across the fleet (cluster mode, SPEC K4; ADR 037 amended): the fleet bus for flows
 * another replica holds and for records another replica wrote, a PostgreSQL advisory lock per
 * server around each refresh, and a server waiting in `needs_authorization` connected when
 * another replica stored its tokens. Single-service mode never loads this.
 * @module
 */
import type { Sql } from 'postgres';
import type { FleetBus } from '../cluster/index.js';
import type { Hub } from '../hub/create-hub.js';
import type { Exclusive, OAuth } from '../oauth/index.js';

/** The advisory lock space of OAuth refreshes (`pg_advisory_xact_lock(space, hashtext(server))`): "oaut". */
const OAUTH_LOCK = 0x6f617574;

/**
 * One refresh section at a time on this replica, each in a transaction holding the server's
 * advisory lock: the pool has few connections, and a replica whose every connection waited on
 * a lock could not read the keystore the holder's work needs. A holder stuck past 30 s frees
 * the waiters (`lock_timeout`): their refresh fails as a transient error and is retried.
 */
export function advisoryExclusive(sql: Sql): Exclusive {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(server: string, work: () => Promise<T>): Promise<T> => {
    const run = queue.then(
      () =>
        sql.begin(async (tx) => {
          await tx`set local lock_timeout = '30s'`;
          await tx`select pg_advisory_xact_lock(${OAUTH_LOCK}, hashtext(${server}))`;
          return [await work()];
        }) as unknown as Promise<[T]>,
    );
    queue = run.catch(() => undefined);
    return run.then(([value]) => value);
  };
}

/** Join OAuth to the fleet; resolves with the stop. */
export function shareOAuth({
  oauth,
  fleet,
  sql,
  hub,
}: {
  oauth: Pick<OAuth, 'joinFleet'>;
  fleet: FleetBus;
  sql: Sql;
  hub: Pick<Hub, 'getServer' | 'connect'>;
}): Promise<() => Promise<void>> {
  return oauth.joinFleet({
    bus: fleet,
    exclusive: advisoryExclusive(sql),
    authorizedElsewhere: (server) => {
      try {
        if (hub.getServer(server).state === 'needs_authorization') hub.connect(server);
      } catch {
        // Not configured here (any more): nothing to connect.
      }
    },
  });
}
