/**
 * Once per listener across replicas (ADR 044): a list change is told apart by the list's
 * fingerprint after it, a resource update by its URI and a short window; a replica's own
 * events are never held back; remote holds of a stream's resources end when let go or when
 * no word of them came for their lifetime.
 */
import type { ServerEvent } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createDelivered, createRemoteHolds, listToken } from '../../../src/http/mcp/fleet-listen.js';

const tools: ServerEvent = { kind: 'tools_list_changed' };
const updated = (uri: string): ServerEvent => ({ kind: 'resource_updated', uri });

describe('createDelivered', () => {
  it('gives a list change once whichever replica tells it first, and every change of its own', () => {
    const delivered = createDelivered({ windowMs: 500, now: () => 0 });
    expect(delivered.take(tools, 'f1', false)).toBe(true);
    expect(delivered.take(tools, 'f1', true)).toBe(false);
    expect(delivered.take(tools, 'f2', true)).toBe(true);
    expect(delivered.take(tools, 'f2', false)).toBe(false);
    expect(delivered.take(tools, 'f2', true)).toBe(false);
    // Its own, even with a list that looks the same (a bot's change): given.
    expect(delivered.take(tools, 'f3', false)).toBe(true);
    expect(delivered.take(tools, 'f3', false)).toBe(true);
    // Another kind is another list.
    expect(delivered.take({ kind: 'prompts_list_changed' }, 'f3', true)).toBe(true);
  });

  it("takes another replica's update of a resource within the window for a copy, and never its own", () => {
    let now = 1_000;
    const delivered = createDelivered({ windowMs: 500, now: () => now });
    expect(delivered.take(updated('a'), undefined, false)).toBe(true);
    now += 10;
    expect(delivered.take(updated('a'), undefined, true)).toBe(false);
    expect(delivered.take(updated('b'), undefined, true)).toBe(true);
    expect(delivered.take(updated('a'), undefined, false)).toBe(true);
    now += 600;
    expect(delivered.take(updated('a'), undefined, true)).toBe(true);
    expect(delivered.take(updated('a'), undefined, true)).toBe(false);
  });

  it("reads a list event's token from the view's fingerprint of that list", () => {
    const fingerprint = { tools: 't', resources: 'r', prompts: 'p' };
    expect(listToken(tools, fingerprint)).toBe('t');
    expect(listToken({ kind: 'resources_list_changed' }, fingerprint)).toBe('r');
    expect(listToken(updated('x'), fingerprint)).toBeUndefined();
    expect(listToken(tools, null)).toBeUndefined();
  });
});

describe('createRemoteHolds', () => {
  it('holds once per stream, lets go on release, and after its lifetime without word', async () => {
    const holds = createRemoteHolds({ expireMs: 30 });
    const log: string[] = [];
    const listen = async (uris: readonly string[]) => {
      log.push(`hold ${uris.join(',')}`);
      return async () => void log.push(`release ${uris.join(',')}`);
    };
    holds.hold('s1', ['a'], listen);
    holds.hold('s1', ['a'], listen);
    holds.hold('s2', ['b'], listen);
    expect(holds.size()).toBe(2);
    holds.release('s1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['hold a', 'hold b', 'release a']);
    // s2's replica says nothing more: it is let go.
    await new Promise<void>((resolve) => {
      const check = () => (holds.size() === 0 ? resolve() : setTimeout(check, 5));
      check();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['hold a', 'hold b', 'release a', 'release b']);
  });
});
