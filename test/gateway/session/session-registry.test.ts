/**
 * The session registry: sessions by id, and subscriptions counted on shared connections.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../../src/gateway/session/agent-session.js';
import { createSessionRegistry } from '../../../src/gateway/session/session-registry.js';

/** A session record with only what the registry reads. */
const session = (id: string) => ({ id, subscriptions: new Map(), ownUpstreams: new Map() }) as unknown as AgentSession;

describe('createSessionRegistry', () => {
  it('holds sessions by id and forgets each once', () => {
    const registry = createSessionRegistry();
    const one = session('one');
    registry.add(one);
    expect(registry.get('one')).toBe(one);
    expect(registry.all()).toEqual([one]);
    expect(registry.remove(one)).toEqual([]);
    expect(registry.remove(one)).toBeNull();
    expect(registry.get('one')).toBeUndefined();
  });

  it('counts shared subscriptions across sessions and releases what an ending session alone held', () => {
    const registry = createSessionRegistry();
    const [one, two] = [session('one'), session('two')];
    registry.add(one);
    registry.add(two);
    const route = { server: 's', uri: 'file:///a' };
    expect(registry.subscribe(one, 'file:///a', route, true)).toBe('subscribe');
    expect(registry.subscribe(two, 'boternity:s:file:///a', route, true)).toBe('none');
    expect(registry.subscribers('s', 'file:///a', null)).toEqual([
      { session: one, publicUri: 'file:///a' },
      { session: two, publicUri: 'boternity:s:file:///a' },
    ]);
    expect(registry.sharedUris('s')).toEqual(['file:///a']);
    expect(registry.unsubscribe(one, 'file:///a', true)).toEqual({ route, action: 'none' });
    expect(registry.unsubscribe(one, 'file:///a', true)).toBeNull();
    expect(registry.remove(two)).toEqual([route]);
    expect(registry.sharedUris('s')).toEqual([]);
  });

  it("always tells a session's own connection, and routes its updates to it alone", () => {
    const registry = createSessionRegistry();
    const one = session('one');
    registry.add(one);
    const route = { server: 'own', uri: 'x://1' };
    expect(registry.subscribe(one, 'x://1', route, false)).toBe('subscribe');
    expect(registry.subscribe(one, 'x://1', route, false)).toBe('subscribe');
    expect(registry.subscribers('own', 'x://1', null)).toEqual([]);
    expect(registry.subscribers('own', 'x://1', one)).toEqual([{ session: one, publicUri: 'x://1' }]);
    expect(registry.unsubscribe(one, 'x://1', false)).toEqual({ route, action: 'unsubscribe' });
  });
});
