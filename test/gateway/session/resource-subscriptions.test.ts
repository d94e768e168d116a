import { describe, expect, it } from 'vitest';
import { createResourceSubscriptions } from '../../../src/gateway/session/resource-subscriptions.js';

describe('createResourceSubscriptions', () => {
  it('subscribes upstream for the first session and unsubscribes after the last', () => {
    const subs = createResourceSubscriptions();
    expect(subs.add('s', 'file:///a', 'one')).toBe('subscribe');
    expect(subs.add('s', 'file:///a', 'two')).toBe('none');
    expect(subs.add('s', 'file:///a', 'two')).toBe('none');
    expect(subs.remove('s', 'file:///a', 'one')).toBe('none');
    expect(subs.remove('s', 'file:///a', 'one')).toBe('none');
    expect(subs.remove('s', 'file:///a', 'two')).toBe('unsubscribe');
    expect(subs.add('s', 'file:///a', 'one')).toBe('subscribe');
  });

  it('keeps servers apart and releases what a closed session alone held', () => {
    const subs = createResourceSubscriptions();
    subs.add('s', 'u1', 'one');
    subs.add('t', 'u1', 'one');
    subs.add('s', 'u2', 'one');
    subs.add('s', 'u2', 'two');
    expect(subs.removeSession('one')).toEqual([
      { server: 's', uri: 'u1' },
      { server: 't', uri: 'u1' },
    ]);
    expect(subs.remove('s', 'u2', 'two')).toBe('unsubscribe');
  });
});
