/**
 * The fair queue of the in-flight caps (ADR 022), as a pure unit: round-robin across keys,
 * first in first out within one, a key that starts waiting served next, ineligible keys
 * passed over, removal; and generated sequences of operations held to a model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFairQueue } from '../../../src/gateway/relay/fair-queue.js';

const all = () => true;
const drain = (queue: ReturnType<typeof createFairQueue<string>>) => {
  const taken: string[] = [];
  for (let item = queue.take(all); item !== undefined; item = queue.take(all)) taken.push(item);
  return taken;
};

describe('createFairQueue', () => {
  it("serves a key that starts waiting next, then takes turns: one key's backlog never stands in front of another's one item", () => {
    const queue = createFairQueue<string>();
    for (let i = 1; i <= 4; i++) queue.push('a', `a${i}`);
    queue.push('b', 'b1');
    expect(queue.size).toBe(5);
    expect(drain(queue)).toEqual(['b1', 'a1', 'a2', 'a3', 'a4']);
    expect(queue.size).toBe(0);
  });

  it('alternates between keys that keep waiting, each in its own order', () => {
    const queue = createFairQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    for (const item of ['b1', 'b2']) queue.push('b', item);
    expect(queue.take(all)).toBe('b1');
    for (const item of ['c1', 'c2']) queue.push('c', item);
    expect(drain(queue)).toEqual(['c1', 'a1', 'b2', 'c2', 'a2', 'a3']);
  });

  it('passes over keys that may not be served now, and answers undefined when none may', () => {
    const queue = createFairQueue<string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    expect(queue.take((key) => key === 'a')).toBe('a1');
    expect(queue.take((key) => key === 'a')).toBeUndefined();
    expect(queue.size).toBe(1);
    expect(queue.take(all)).toBe('b1');
    expect(queue.take(all)).toBeUndefined();
  });

  it('takes out an item that gave up, and nothing twice', () => {
    const queue = createFairQueue<string>();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    expect(queue.remove('a', 'a1')).toBe(true);
    expect(queue.remove('a', 'a1')).toBe(false);
    expect(queue.remove('b', 'b1')).toBe(true);
    expect(queue.remove('c', 'c1')).toBe(false);
    expect(queue.size).toBe(1);
    expect(drain(queue)).toEqual(['a2']);
  });

  type Op = { kind: 'push'; key: string } | { kind: 'take'; eligible: string[] } | { kind: 'remove'; key: string };
  const keys = fc.constantFrom('a', 'b', 'c', 'd');
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('push' as const), key: keys }),
    fc.record({ kind: fc.constant('take' as const), eligible: fc.subarray(['a', 'b', 'c', 'd']) }),
    fc.record({ kind: fc.constant('remove' as const), key: keys }),
  );

  it('holds to a model: every item out once, in its order within its key, only for eligible keys', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const queue = createFairQueue<string>();
        const model = new Map<string, string[]>();
        let next = 0;
        for (const step of ops) {
          if (step.kind === 'push') {
            const item = `${step.key}${next++}`;
            queue.push(step.key, item);
            model.set(step.key, [...(model.get(step.key) ?? []), item]);
          } else if (step.kind === 'remove') {
            const victim = model.get(step.key)?.at(-1);
            expect(queue.remove(step.key, victim ?? 'none')).toBe(victim !== undefined);
            if (victim !== undefined) model.set(step.key, (model.get(step.key) ?? []).slice(0, -1));
          } else {
            const item = queue.take((key) => step.eligible.includes(key));
            const waiting = step.eligible.filter((key) => (model.get(key)?.length ?? 0) > 0);
            if (waiting.length === 0) expect(item).toBeUndefined();
            else {
              const key = (item as string)[0] as string;
              expect(step.eligible).toContain(key);
              // First in, first out within the key.
              expect(model.get(key)?.[0]).toBe(item);
              model.set(key, (model.get(key) ?? []).slice(1));
            }
          }
          expect(queue.size).toBe([...model.values()].reduce((n, items) => n + items.length, 0));
        }
      }),
    );
  });

  it('takes turns: with no arrivals, no key is served twice while another still waiting is not served', () => {
    fc.assert(
      fc.property(fc.array(keys, { minLength: 1, maxLength: 60 }), (pushes) => {
        const queue = createFairQueue<string>();
        for (const [i, key] of pushes.entries()) queue.push(key, `${key}${i}`);
        const order = drain(queue).map((item) => item[0] as string);
        for (let i = 0; i < order.length; i++) {
          const j = order.indexOf(order[i] as string, i + 1);
          if (j < 0) continue;
          // Every key still waiting at the second turn had one in between.
          const between = new Set(order.slice(i + 1, j));
          for (const later of new Set(order.slice(j + 1))) if (later !== order[i]) expect(between).toContain(later);
        }
      }),
    );
  });
});
