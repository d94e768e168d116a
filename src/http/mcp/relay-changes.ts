/**
 * A session's changes across replicas, acknowledged (issue 22 part 3, ADR 039 §3):
 * `logging/setLevel`, `resources/subscribe` and `unsubscribe`, once answered by the replica
 * that got them, are sent to every replica (`state`, naming the sender and a reference);
 * each replica applies a change of a session it holds and says so (`applied`), and one that
 * does not hold it says so at once. The change's answer waits until every live replica has
 * said so, or {@link APPLY_WAIT_MS}: a request of the session that the balancer sends to
 * another replica next is then served with the change, not within the moment it took the
 * note to arrive there. A replica that does not answer in time is named in a warning and
 * the answer goes out all the same (it applies the change when the note arrives, or from
 * `session_state` when it rebuilds the session).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

/** The notes of this part; `s` the session id's digest. */
export type ChangeNote =
  /** A change of session `s` answered by the replica tagged `from`; `ref` absent: no one waits (an older replica). */
  | {
      readonly k: 'state';
      readonly s: string;
      readonly m: JSONRPCRequest;
      readonly ref?: string;
      readonly from?: string;
    }
  /** To the replica tagged `to`: the replica `by` applied (or does not hold) the change `ref`. */
  | { readonly k: 'applied'; readonly to: string; readonly ref: string; readonly by: string };

/** How long a change's answer waits for the other replicas at most: a live one answers in milliseconds. */
export const APPLY_WAIT_MS = 1_000;

/** What the relay hands this part. */
export type RelayChanges = {
  /** Send change `m` of session `s` to every replica; resolves once every live one applied it (or the wait is over). */
  announce(s: string, m: JSONRPCRequest): Promise<void>;
  /** A `state` note of another replica: apply it through `inject` when the session is held here (`inject` null: not held), then say so. */
  heardChange(
    note: Extract<ChangeNote, { k: 'state' }>,
    inject: ((message: JSONRPCMessage) => Promise<void>) | null,
  ): void;
  /** An `applied` note of another replica. */
  heardApplied(note: Extract<ChangeNote, { k: 'applied' }>): void;
};

/**
 * This replica's part: `tag` its tag, `replica` its id; `peers` the other live replicas'
 * ids (null: no one is waited for, as before acknowledgements).
 */
export function createRelayChanges({
  tag,
  replica,
  publish,
  peers,
  log,
  waitMs = APPLY_WAIT_MS,
}: {
  tag: string;
  replica: string;
  publish(note: ChangeNote): Promise<void>;
  peers: (() => Promise<readonly string[]>) | null;
  log: Pick<Logger, 'warn'>;
  waitMs?: number | undefined;
}): RelayChanges {
  const waiting = new Map<string, { pending: Set<string>; done(): void }>();
  return {
    async announce(s, m) {
      if (!peers) return publish({ k: 'state', s, m });
      const ref = randomUUID();
      const pending = new Set(
        await peers().catch((error: unknown) => {
          log.warn(
            { err: error },
            'fleet relay: the live replicas not read; a change answered without waiting for them',
          );
          return [];
        }),
      );
      let timer: NodeJS.Timeout | undefined;
      const applied = new Promise<boolean>((resolve) => {
        waiting.set(ref, { pending, done: () => resolve(true) });
        timer = setTimeout(() => resolve(false), waitMs);
      });
      try {
        await publish({ k: 'state', s, m, ref, from: tag });
        if (pending.size > 0 && !(await applied))
          log.warn(
            { method: m.method, replicas: [...pending], waitedMs: waitMs },
            'fleet relay: a session change answered before every replica said it applied it',
          );
      } finally {
        clearTimeout(timer);
        waiting.delete(ref);
      }
    },
    heardChange(note, inject) {
      const { ref, from } = note;
      // An older replica's note: nobody waits for an answer.
      const say = () => (ref && from ? void publish({ k: 'applied', to: from, ref, by: replica }) : undefined);
      if (!inject) return say();
      inject(note.m).then(say, (error: unknown) => {
        log.warn({ err: error }, 'fleet relay: a session change not applied here');
        say();
      });
    },
    heardApplied(note) {
      const wait = note.to === tag ? waiting.get(note.ref) : undefined;
      if (!wait) return;
      wait.pending.delete(note.by);
      if (wait.pending.size === 0) wait.done();
    },
  };
}
