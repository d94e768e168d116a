/**
 * Names that collide after normalization (SPEC G2): 20,000 tools `x一`, `x丁`… all become
 * `srv__x_`. Each loser used to probe `#2, #3…` from 2 again (quadratic: ~60 s of a blocked
 * event loop on every view rebuild); the names must still be those of the naming contract.
 */
import { describe, expect, it } from 'vitest';
import { resolvePublicNames, toPublicName } from '../../../src/gateway/views/public-names.js';

const colliding = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ server: 'srv', name: `x${String.fromCodePoint(0x4e00 + i)}` }));

describe('colliding public names', () => {
  it('builds 20,000 names that collide in well under a second, all distinct', () => {
    const pairs = colliding(20_000);
    const started = performance.now();
    const names = resolvePublicNames(pairs, 'prefixed');
    const ms = performance.now() - started;
    expect(new Set(names).size).toBe(20_000);
    expect(names[0]).toBe('srv__x_');
    expect(names[1]).toBe('srv__x__2');
    expect(names.at(-1)).toBe('srv__x__20000');
    expect(ms).toBeLessThan(500);
  });

  it('gives the same names as probing every n from 2, other names in the way included', () => {
    // `srv__x__3` is an upstream's own name: the losers skip it, as they always did.
    const pairs = [...colliding(50), { server: 'srv', name: 'x__3' }];
    const names = resolvePublicNames(pairs, 'prefixed');
    const taken = new Set<string>(['srv__x_', 'srv__x__3']);
    const expected = pairs.map((p, i) => {
      if (i === 0 || i === 50) return toPublicName(p.server, p.name);
      for (let n = 2; ; n++) {
        const candidate = toPublicName(p.server, `${p.name}#${n}`);
        if (taken.has(candidate)) continue;
        taken.add(candidate);
        return candidate;
      }
    });
    expect(names).toEqual(expected);
  });

  it('keeps long colliding names apart by their own hash once the counter no longer fits (n ≥ 10 here)', () => {
    const long = 'y'.repeat(56);
    const pairs = Array.from({ length: 300 }, (_, i) => ({
      server: 'srv',
      name: `${long}${String.fromCodePoint(0x4e00 + i)}`,
    }));
    const names = resolvePublicNames(pairs, 'prefixed');
    expect(new Set(names).size).toBe(300);
    expect(names.every((n) => n.length <= 64)).toBe(true);
  });
});
