/**
 * The budget every session's resumption buffer shares (SPEC X8): bytes of SSE event data
 * held by all the logs together. Over it, the oldest event of any session goes first, so
 * one busy session cannot take the whole budget while idle ones keep theirs for ever.
 * @module
 */

/** A log in the pool: the ticket of its oldest event, and a way to drop that event. */
export type PoolMember = {
  /** The ticket of its oldest stored event; null when it holds none. */
  oldest(): number | null;
  /** Drop its oldest stored event (it reports the bytes freed through its lease). */
  dropOldest(): void;
};

/** A log's membership. */
export type PoolLease = {
  /** The next ticket: increasing across every log of the pool. */
  ticket(): number;
  /** Count bytes stored (positive) or freed (negative); storing may evict the oldest events of all. */
  add(bytes: number): void;
  /** Leave the pool, handing back what the log still holds. */
  leave(): void;
};

/** The shared budget. */
export type SseBufferPool = {
  /** Bytes of event data held now by every log. */
  bytes(): number;
  join(member: PoolMember): PoolLease;
};

/** Create a pool of `maxBytes()` (read at each store: the config hot-reloads). */
export function createSseBufferPool({ maxBytes }: { maxBytes: () => number }): SseBufferPool {
  const members = new Set<PoolMember>();
  let held = 0;
  let tickets = 0;
  /** The member holding the oldest event; a scan, bounded by the cap on sessions. */
  const oldestMember = (): PoolMember | null => {
    let found: PoolMember | null = null;
    let lowest = Number.POSITIVE_INFINITY;
    for (const member of members) {
      const ticket = member.oldest();
      if (ticket !== null && ticket < lowest) {
        lowest = ticket;
        found = member;
      }
    }
    return found;
  };
  return {
    bytes: () => held,
    join(member) {
      members.add(member);
      let mine = 0;
      return {
        ticket: () => ++tickets,
        add(bytes) {
          mine += bytes;
          held += bytes;
          if (bytes <= 0) return;
          const max = maxBytes();
          while (held > max) {
            const victim = oldestMember();
            if (!victim) break;
            victim.dropOldest();
          }
        },
        leave() {
          if (!members.delete(member)) return;
          held -= mine;
          mine = 0;
        },
      };
    },
  };
}
