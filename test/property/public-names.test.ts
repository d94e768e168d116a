/**
 * Public names (SPEC G2) as properties: within 64 characters of `[A-Za-z0-9_-]`, every
 * listed name routes back to its owner, no two items share a name, and the result depends
 * only on the set of items, never on their order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAME_RE, namePublicItems, parseRewrittenUri, toRewrittenUri } from '../../src/gateway/views/public-names.js';

// Server names follow the config's rule; item names are whatever an upstream sends.
const serverName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$/);
const itemName = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  // Names built to collide: the same stem with separators that all become `_`.
  fc
    .tuple(fc.constantFrom('a', 'x_y', 'tool'), fc.constantFrom('', '.', '_', '-', ' ', '__', '#2'))
    .map(([a, b]) => a + b),
  fc.string({ unit: 'grapheme-ascii', minLength: 60, maxLength: 120 }),
);
const entries = fc.array(
  fc.record({ server: fc.oneof(serverName, fc.constantFrom('a', 'a_b', 'a.b', 'a__b')), name: itemName }),
  { maxLength: 40 },
);

const listedOf = (list: readonly { server: string; name: string }[]) =>
  namePublicItems(
    list.map(({ server, name }) => ({ server, item: { name } })),
    'prefixed',
  );

describe('public names (property)', () => {
  it('are at most 64 characters of [A-Za-z0-9_-], unique, and route back to their owner', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const { listed, routes } = listedOf(list);
        const names = listed.map((item) => item.name);
        for (const name of names) expect(name).toMatch(NAME_RE);
        expect(new Set(names).size).toBe(names.length);
        // Every distinct (server, item) is listed once, in order, and its name leads back to it.
        const owners = [...new Map(list.map((o) => [JSON.stringify([o.server, o.name]), o])).values()];
        expect(routes.size).toBe(owners.length);
        owners.forEach((owner, i) => {
          expect(routes.get(names[i] ?? '')).toEqual({ server: owner.server, name: owner.name });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('are deterministic: the same set of items in any order gets the same names', () => {
    fc.assert(
      fc.property(
        entries.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }))),
        ([list, shuffled]) => {
          const byOwner = (routes: Map<string, { server: string; name: string }>) =>
            new Map([...routes].map(([name, owner]) => [JSON.stringify([owner.server, owner.name]), name]));
          expect(byOwner(listedOf(shuffled).routes)).toEqual(byOwner(listedOf(list).routes));
          expect(listedOf(list).routes).toEqual(listedOf(list).routes);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rewritten resource URIs round-trip to their server and upstream URI', () => {
    fc.assert(
      fc.property(serverName, fc.string({ unit: 'binary' }), (server, uri) => {
        expect(parseRewrittenUri(toRewrittenUri(server, uri))).toEqual({ server, uri });
      }),
    );
  });
});
