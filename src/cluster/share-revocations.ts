/**
 * Token revocations across the fleet (issue 22 part 7): a token revoked through one replica
 * (or the CLI on the database) is refused by every replica from its next request on. Each
 * replica remembers a live token for a second (`storage/token-verifier.ts`); the revoking side
 * announces the token on the fleet bus (`tokens.revoked`), every replica forgets it, ends the
 * sessions it opened and answers `tokens.forgotten`; the announcement resolves once every
 * live replica has answered, or after `waitMs` (the second a replica may remember a token:
 * by then none holds it, answered or not). So the revocation's `204` means: refused everywhere.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../storage/create-db.js';
import type { FleetBus } from './fleet-bus.js';
import { liveReplicas } from './live-replicas.js';

/** The topic a revoked token's id is announced on. */
export const REVOKED_TOPIC = 'tokens.revoked';
/** The topic each replica answers on once it forgot the token. */
export const FORGOTTEN_TOPIC = 'tokens.forgotten';

/** Options of {@link shareRevocations}. */
export type ShareRevocationsOptions = {
  bus: FleetBus;
  /** Where the live replicas are read (`replicas`: no clean stop, a recent heartbeat). */
  db: Db;
  log: Pick<Logger, 'warn'>;
  /** A replica's heartbeat older than this: it is not waited for. */
  staleAfterMs: () => number;
  /** Forget token `id` here and end what it opened (absent: the CLI, which serves nothing). */
  forget?(id: string): void;
  /** Forget every token: the bus listens again after a drop and may have missed revocations. */
  forgetAll?(): void;
  /** How long an announcement waits for the answers at most (default 1 s: the verifier's memory). */
  waitMs?: number;
};

/** A replica's part in the fleet's revocations. */
export type SharedRevocations = {
  /** Tell every replica that token `id` is revoked; resolves once all live ones forgot it (at most `waitMs`). */
  announce(id: string): Promise<void>;
  stop(): Promise<void>;
};

type Revoked = { id: string; ref: string };
type Waiting = { pending: Set<string>; done(): void };

/** Follow the fleet's revocations and announce this replica's. */
export async function shareRevocations({
  bus,
  db,
  log,
  staleAfterMs,
  forget,
  forgetAll,
  waitMs = 1_000,
}: ShareRevocationsOptions): Promise<SharedRevocations> {
  const waiting = new Map<string, Waiting>();
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0)) await stop();
    for (const wait of waiting.values()) wait.done();
  };
  try {
    stops.push(
      await bus.subscribe(FORGOTTEN_TOPIC, ({ from, payload }) => {
        const wait = waiting.get((payload as { ref?: unknown }).ref as string);
        if (!wait) return;
        wait.pending.delete(from);
        if (wait.pending.size === 0) wait.done();
      }),
    );
    if (forget)
      stops.push(
        await bus.subscribe(
          REVOKED_TOPIC,
          async ({ self, payload }) => {
            if (self) return;
            const { id, ref } = revokedOf(payload);
            forget(id);
            await bus.publish(FORGOTTEN_TOPIC, { ref });
          },
          forgetAll ? { onReady: forgetAll } : {},
        ),
      );
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    async announce(id) {
      const told = Date.now();
      const ref = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      try {
        const pending = new Set(await liveReplicas(db, bus.replica, staleAfterMs()));
        const answered = new Promise<boolean>((resolve) => {
          waiting.set(ref, { pending, done: () => resolve(true) });
          timer = setTimeout(() => resolve(false), waitMs);
        });
        await bus.publish(REVOKED_TOPIC, { id, ref } satisfies Revoked);
        if (pending.size > 0 && !(await answered))
          log.warn(
            { token: id, replicas: [...pending], waitedMs: waitMs },
            'token revoked: some replicas did not say they forgot it; they refuse it now all the same (a replica remembers a token 1 s at most)',
          );
      } catch (error) {
        // The row is revoked: once no replica can still remember the token, it is refused everywhere.
        log.warn(
          { err: error, token: id },
          'token revoked, but the fleet could not be told: waiting out what the replicas remember of it',
        );
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, told + waitMs - Date.now())));
      } finally {
        clearTimeout(timer);
        waiting.delete(ref);
      }
    },
    stop: stopAll,
  };
}

/** A `tokens.revoked` message's payload, or an error naming what is wrong with it (logged by the bus, nothing forgotten). */
function revokedOf(payload: unknown): Revoked {
  const { id, ref } = (payload ?? {}) as Partial<Record<keyof Revoked, unknown>>;
  if (typeof id !== 'string' || typeof ref !== 'string')
    throw new Error(
      `${REVOKED_TOPIC}: ${JSON.stringify(payload)?.slice(0, 200)} is not {"id": string, "ref": string}; ignored`,
    );
  return { id, ref };
}
