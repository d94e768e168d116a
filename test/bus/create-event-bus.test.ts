import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/bus/create-event-bus.js';

type E = { type: string; n: number };

describe('createEventBus', () => {
  it('gives every event an increasing id and delivers it to each subscriber once', () => {
    let t = 1000;
    const bus = createEventBus<E>({ now: () => t++ });
    const seen: number[] = [];
    const unsubscribe = bus.subscribe((e) => seen.push(e.id));
    expect(bus.publish({ type: 'a', n: 1 })).toEqual({ id: 1, at: 1000, event: { type: 'a', n: 1 } });
    bus.publish({ type: 'b', n: 2 });
    unsubscribe();
    bus.publish({ type: 'c', n: 3 });
    expect(seen).toEqual([1, 2]);
    expect(bus.lastId()).toBe(3);
  });

  it('replays what a subscriber missed while it is still in the window', () => {
    const bus = createEventBus<E>({ capacity: 3 });
    for (let n = 1; n <= 5; n++) bus.publish({ type: 'x', n });
    expect(bus.since(5)).toEqual([]);
    expect(bus.since(3)?.map((e) => e.event.n)).toEqual([4, 5]);
    expect(bus.since(2)?.map((e) => e.event.n)).toEqual([3, 4, 5]);
    // Event 2 has left the window: the caller must take a fresh snapshot.
    expect(bus.since(1)).toBeNull();
    expect(bus.since(0)).toBeNull();
  });

  it('keeps delivering when a listener throws, and reports the error', () => {
    const errors: unknown[] = [];
    const bus = createEventBus<E>({}, (error) => errors.push(error));
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe((e) => seen.push(e.event.n));
    bus.publish({ type: 'x', n: 7 });
    expect(seen).toEqual([7]);
    expect(errors).toHaveLength(1);
  });

  it('hands a subscriber of some types those events only, in order with every other subscriber', () => {
    type T = { type: 'a'; n: number } | { type: 'b'; n: number } | { type: 'c'; n: number };
    const bus = createEventBus<T>();
    const seen: string[] = [];
    bus.subscribe(({ event }) => seen.push(`all ${event.type}${event.n}`));
    const stop = bus.subscribeTo(['a', 'c'], ({ event }) => seen.push(`a|c ${event.type}${event.n}`));
    bus.subscribeTo(['b'], ({ event }) => seen.push(`b ${event.type}${event.n}`));
    bus.publish({ type: 'a', n: 1 });
    bus.publish({ type: 'b', n: 2 });
    bus.publish({ type: 'c', n: 3 });
    stop();
    bus.publish({ type: 'a', n: 4 });
    expect(seen).toEqual(['all a1', 'a|c a1', 'all b2', 'b b2', 'all c3', 'a|c c3', 'all a4']);
  });

  it('finishes a publish with the subscribers it began with when one unsubscribes another', () => {
    const bus = createEventBus<E>();
    const seen: string[] = [];
    let stopSecond = () => {};
    bus.subscribe(() => {
      seen.push('first');
      stopSecond();
    });
    stopSecond = bus.subscribeTo(['x'], () => seen.push('second'));
    bus.subscribe(() => seen.push('third'));
    bus.publish({ type: 'x', n: 1 });
    bus.publish({ type: 'x', n: 2 });
    expect(seen).toEqual(['first', 'second', 'third', 'first', 'third']);
  });

  it('skips a typed subscriber for an event without a type', () => {
    const bus = createEventBus<E | string>();
    const seen: unknown[] = [];
    bus.subscribeTo(['x'], ({ event }) => seen.push(event));
    bus.publish('plain');
    bus.publish({ type: 'x', n: 1 });
    expect(seen).toEqual([{ type: 'x', n: 1 }]);
  });
});
