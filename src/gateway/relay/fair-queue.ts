/**
 * Waiting items served round-robin across keys (tokens), first in first out within a key,
 * so one caller's many waiting requests never stand in front of another's one (ADR 022).
 * A key that starts waiting is served next, as a sparse flow is in fq_codel: the token
 * with one call waits for one free place, not for a turn behind a round of every busy
 * token. Pure: no timers, no I/O; the caller says which keys may be served now.
 * @module
 */

/** A round-robin queue of `T` per key. */
export type FairQueue<T> = {
  /** Items waiting, over every key. */
  readonly size: number;
  /** Add `item` behind `key`'s other items. */
  push(key: string, item: T): void;
  /** Take the next item in turn among the keys (with their next item) `eligible` accepts; undefined when none. */
  take(eligible: (key: string, next: T) => boolean): T | undefined;
  /** Take `item` of `key` out (its caller gave up); whether it was waiting. */
  remove(key: string, item: T): boolean;
};

/** An empty queue. */
export function createFairQueue<T>(): FairQueue<T> {
  const queues = new Map<string, T[]>();
  // The keys with items waiting, in turn; `cursor` is the one whose turn is next.
  const order: string[] = [];
  let cursor = 0;
  let size = 0;
  const dropKey = (key: string, index: number) => {
    queues.delete(key);
    order.splice(index, 1);
    if (index < cursor) cursor -= 1;
    if (cursor >= order.length) cursor = 0;
  };
  return {
    get size() {
      return size;
    },
    push(key, item) {
      size += 1;
      const queue = queues.get(key);
      if (queue) {
        queue.push(item);
        return;
      }
      queues.set(key, [item]);
      order.splice(cursor, 0, key);
    },
    take(eligible) {
      const keys = order.length;
      for (let step = 0; step < keys; step++) {
        const index = (cursor + step) % keys;
        const key = order[index] as string;
        const queue = queues.get(key) as T[];
        if (!eligible(key, queue[0] as T)) continue;
        const item = queue.shift() as T;
        size -= 1;
        if (queue.length === 0) {
          // The key after it moves into its index and has the next turn.
          cursor = index;
          dropKey(key, index);
        } else cursor = (index + 1) % keys;
        return item;
      }
      return undefined;
    },
    remove(key, item) {
      const queue = queues.get(key);
      const at = queue ? queue.indexOf(item) : -1;
      if (!queue || at < 0) return false;
      queue.splice(at, 1);
      size -= 1;
      if (queue.length === 0) dropKey(key, order.indexOf(key));
      return true;
    },
  };
}
