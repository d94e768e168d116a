/**
 * A typed, in-process event bus with a bounded replay window (SPEC S5, A2): every
 * published event gets a increasing id, and a subscriber that names the last id it saw
 * gets what it missed, if it is still in the window. A subscriber may name the event types
 * it wants: the bus then skips it for every other, so one tool call's event reaches the few
 * parts that read it, not every listener of the process (issue 20).
 * @module
 */

/** One published event with its bus id and time. */
export type Envelope<E> = { readonly id: number; readonly at: number; readonly event: E };

/** Options of {@link createEventBus}. */
export type EventBusOptions = { capacity?: number; now?: () => number };

/** A subscriber; exceptions it throws are reported to `onListenerError`, never to the publisher. */
export type Listener<E> = (envelope: Envelope<E>) => void;

/** The `type` names of the events `E` (none when `E` has no `type`). */
export type EventType<E> = E extends { readonly type: infer T extends string } ? T : never;

/** The events of `E` whose `type` is `T`. */
export type EventOf<E, T extends string> = Extract<E, { readonly type: T }>;

/** The bus: publish, subscribe, replay. */
export type EventBus<E> = {
  publish(event: E): Envelope<E>;
  /** Subscribe to every event; returns the function that unsubscribes. */
  subscribe(listener: Listener<E>): () => void;
  /**
   * Subscribe to the events of `types` only (in publishing order with every other
   * subscriber); returns the function that unsubscribes.
   */
  subscribeTo<T extends EventType<E>>(types: Iterable<T>, listener: Listener<EventOf<E, T>>): () => void;
  /**
   * Events after `lastId`, oldest first, or `null` when the window no longer holds all of
   * them (the caller then needs a fresh snapshot).
   */
  since(lastId: number): Envelope<E>[] | null;
  /** Id of the newest event, 0 before the first. */
  lastId(): number;
  /** Names this bus instance: ids restart with a new process, so clients must tell runs apart. */
  readonly bootId: string;
};

/** Create a bus holding the last `capacity` events (default 1000, at least 1) for replay. */
export function createEventBus<E>(
  { capacity: asked = 1000, now = Date.now }: EventBusOptions = {},
  onListenerError?: (error: unknown) => void,
): EventBus<E> {
  const capacity = Math.max(1, Math.floor(asked));
  // A ring: the event of id `n` at `(n - 1) % capacity`. Dropping the oldest from the front of
  // an array moved the other 999 on every publish once it was full, each tool call (issue 20).
  const window: (Envelope<E> | undefined)[] = new Array(capacity);
  // In subscribing order; replaced, never changed, so a publish walks it without a copy while
  // its listeners subscribe and unsubscribe.
  let entries: readonly { listener: Listener<E>; types: ReadonlySet<string> | null }[] = [];
  const add = (listener: Listener<E>, types: ReadonlySet<string> | null): (() => void) => {
    const entry = { listener, types };
    entries = [...entries, entry];
    return () => {
      entries = entries.filter((held) => held !== entry);
    };
  };
  let seq = 0;
  return {
    publish(event) {
      seq += 1;
      const envelope: Envelope<E> = { id: seq, at: now(), event };
      window[(seq - 1) % capacity] = envelope;
      const type = typeOf(event);
      for (const { listener, types } of entries) {
        if (!wants(types, type)) continue;
        try {
          listener(envelope);
        } catch (error) {
          onListenerError?.(error);
        }
      }
      return envelope;
    },
    subscribe: (listener) => add(listener, null),
    subscribeTo: (types, listener) => add(listener as Listener<E>, new Set(types)),
    since(lastId) {
      if (lastId >= seq) return [];
      const oldest = Math.max(1, seq - capacity + 1);
      if (lastId + 1 < oldest) return null;
      const missed: Envelope<E>[] = [];
      for (let id = Math.max(lastId + 1, oldest); id <= seq; id++)
        missed.push(window[(id - 1) % capacity] as Envelope<E>);
      return missed;
    },
    lastId: () => seq,
    bootId: `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`,
  };
}

/** Whether a subscriber of `types` (null: every event) is handed an event of `type`. */
export function wants(types: ReadonlySet<string> | null, type: string | undefined): boolean {
  return types === null || (type !== undefined && types.has(type));
}

/** The `type` of an event that has one. */
export function typeOf(event: unknown): string | undefined {
  const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}
