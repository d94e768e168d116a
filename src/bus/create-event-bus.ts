/**
 * A typed, in-process event bus with a bounded replay window (SPEC S5, A2): every
 * published event gets a increasing id, and a subscriber that names the last id it saw
 * gets what it missed, if it is still in the window.
 * @module
 */

/** One published event with its bus id and time. */
export type Envelope<E> = { readonly id: number; readonly at: number; readonly event: E };

/** Options of {@link createEventBus}. */
export type EventBusOptions = { capacity?: number; now?: () => number };

/** A subscriber; exceptions it throws are reported to `onListenerError`, never to the publisher. */
export type Listener<E> = (envelope: Envelope<E>) => void;

/** The bus: publish, subscribe, replay. */
export type EventBus<E> = {
  publish(event: E): Envelope<E>;
  /** Subscribe; returns the function that unsubscribes. */
  subscribe(listener: Listener<E>): () => void;
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

/** Create a bus holding the last `capacity` events (default 1000) for replay. */
export function createEventBus<E>(
  { capacity = 1000, now = Date.now }: EventBusOptions = {},
  onListenerError?: (error: unknown) => void,
): EventBus<E> {
  const window: Envelope<E>[] = [];
  const listeners = new Set<Listener<E>>();
  let seq = 0;
  return {
    publish(event) {
      seq += 1;
      const envelope: Envelope<E> = { id: seq, at: now(), event };
      window.push(envelope);
      if (window.length > capacity) window.splice(0, window.length - capacity);
      for (const listener of [...listeners]) {
        try {
          listener(envelope);
        } catch (error) {
          onListenerError?.(error);
        }
      }
      return envelope;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    since(lastId) {
      if (lastId >= seq) return [];
      const oldest = window[0]?.id ?? seq + 1;
      if (lastId + 1 < oldest) return null;
      return window.filter((e) => e.id > lastId);
    },
    lastId: () => seq,
    bootId: `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`,
  };
}
