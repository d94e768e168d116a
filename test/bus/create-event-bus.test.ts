import fc from 'fast-check';
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

  it('keeps its window as the last `capacity` events however often it went round', () => {
    const bus = createEventBus<E>({ capacity: 3 });
    for (let n = 1; n <= 3_001; n++) bus.publish({ type: 'x', n });
    expect(bus.since(2_998)?.map((e) => e.event.n)).toEqual([2_999, 3_000, 3_001]);
    expect(bus.since(2_998)?.map((e) => e.id)).toEqual([2_999, 3_000, 3_001]);
    expect(bus.since(2_997)).toBeNull();
    expect(bus.since(3_001)).toEqual([]);
    // A capacity below one holds the newest event only.
    const tiny = createEventBus<E>({ capacity: 0 });
    tiny.publish({ type: 'x', n: 1 });
    tiny.publish({ type: 'x', n: 2 });
    expect(tiny.since(1)?.map((e) => e.event.n)).toEqual([2]);
    expect(tiny.since(0)).toBeNull();
  });

  it('replays exactly what a list of the last `capacity` events would (any capacity, count and id)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.nat(40),
        fc.integer({ min: -3, max: 45 }),
        (capacity, count, lastId) => {
          const bus = createEventBus<E>({ capacity });
          for (let n = 1; n <= count; n++) bus.publish({ type: 'x', n });
          const kept = Array.from({ length: count }, (_, i) => i + 1).slice(-capacity);
          const expected =
            lastId >= count ? [] : lastId + 1 < (kept[0] ?? count + 1) ? null : kept.filter((n) => n > lastId);
          expect(bus.since(lastId)?.map((e) => e.event.n) ?? null).toEqual(expected);
        },
      ),
    );
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
