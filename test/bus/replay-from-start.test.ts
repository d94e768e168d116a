import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import { replayFromStart } from '../../src/bus/replay-from-start.js';

describe('replayFromStart', () => {
  it('gives a late subscriber what the bus said before, then what comes, once each', () => {
    const bus = createEventBus<string>({ capacity: 10 });
    bus.publish('a');
    bus.publish('b');
    const seen: string[] = [];
    const stop = replayFromStart(bus).subscribe(({ event }) => seen.push(event));
    bus.publish('c');
    stop();
    bus.publish('d');
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('keeps subscribing when the listener fails on an old event', () => {
    const bus = createEventBus<string>();
    bus.publish('bad');
    const seen: string[] = [];
    replayFromStart(bus).subscribe(({ event }) => {
      if (event === 'bad') throw new Error('listener failed');
      seen.push(event);
    });
    bus.publish('good');
    expect(seen).toEqual(['good']);
  });

  it('replays to a subscriber of some types the events of those types only, then what comes of them', () => {
    type T = { type: 'kept'; n: number } | { type: 'other'; n: number };
    const bus = createEventBus<T>({ capacity: 10 });
    bus.publish({ type: 'kept', n: 1 });
    bus.publish({ type: 'other', n: 2 });
    const seen: number[] = [];
    replayFromStart(bus).subscribeTo(['kept'], ({ event }) => seen.push(event.n));
    bus.publish({ type: 'other', n: 3 });
    bus.publish({ type: 'kept', n: 4 });
    expect(seen).toEqual([1, 4]);
  });
});
