/**
 * Public names of aggregated tools and prompts (SPEC G2): `{server}__{item}`, within 64
 * characters of `[A-Za-z0-9_-]`, which is what MCP clients and LLM APIs accept as tool names.
 *
 * - Every character outside that alphabet becomes `_`.
 * - A name longer than 64 keeps its first 55 characters and gets `_` + the first 8 hex digits
 *   of sha256 of the ORIGINAL `{server}__{item}`, so distinct long inputs stay distinct.
 * - Collisions (two different (server, item) pairs with the same public name, e.g. `a.b`/`a_b`
 *   or `a__b`+`c`/`a`+`b__c`) are settled by {@link resolvePublicNames}: contenders are sorted by
 *   `{server}\u0000{item}` (UTF-16 code units); the first keeps the name; every other one, in that
 *   sorted order, gets the first free `toPublicName(server, "{item}#{n}")` for n = 2, 3, …
 *   (e.g. `srv__tool_2`). The result depends only on the set of pairs, never on input order.
 *   With `identity` naming the contested name is the upstream's own, and the losers get the
 *   same prefixed `#n` form.
 *
 * Resource URIs keep their upstream URI unless two servers of a view list the same one; the
 * later copies get {@link toRewrittenUri}: `boternity:{encodeURIComponent(server)}:{uri}`. A
 * fixed scheme keeps the result a valid URI whatever the server name (`boternity+{server}:`
 * would not be: `_` is not allowed in a URI scheme).
 * @module
 */
import { createHash } from 'node:crypto';

/** Longest public name, in characters. */
export const MAX_NAME = 64;

/** What every prefixed public name matches. */
export const NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** How a view names tools and prompts: `{server}__{name}`, or the upstream's own name. */
export type Naming = 'prefixed' | 'identity';

/** An item of one upstream, as the upstream names it. */
export type Owned = { readonly server: string; readonly name: string };

const HASH_CHARS = 8;

/** `{server}__{item}` made safe and shortened to at most {@link MAX_NAME} characters. */
export function toPublicName(server: string, item: string): string {
  const original = `${server}__${item}`;
  const safe = original.replace(/[^A-Za-z0-9_-]/gu, '_');
  if (safe.length <= MAX_NAME) return safe;
  const hash = createHash('sha256').update(original).digest('hex').slice(0, HASH_CHARS);
  return `${safe.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}

/** Unique public names for distinct pairs, parallel to `pairs`; collisions resolved as in the header. */
export function resolvePublicNames(pairs: readonly Owned[], naming: Naming): string[] {
  const names = pairs.map((p) => (naming === 'prefixed' ? toPublicName(p.server, p.name) : p.name));
  const keys = pairs.map((p) => `${p.server}\u0000${p.name}`);
  const sorted = pairs.map((_, i) => i).sort((a, b) => compare(keys[a] ?? '', keys[b] ?? ''));
  const winners = new Set<string>();
  const losers: number[] = [];
  for (const i of sorted) {
    const name = names[i] ?? '';
    if (winners.has(name)) losers.push(i);
    else winners.add(name);
  }
  const taken = new Set(names);
  // Per base, the first n not yet known to be taken: thousands of names that collide (`x一`,
  // `x丁`… all `srv__x_`) would otherwise each probe from 2 again, quadratic in their number.
  const nextFree = new Map<string, number>();
  for (const i of losers) {
    const pair = pairs[i];
    if (!pair) continue;
    const base = toPublicName(pair.server, `${pair.name}#`);
    const skipTo = nextFree.get(base) ?? 2;
    for (let n = Math.min(skipTo, firstHashed(base)); ; n++) {
      const candidate = toPublicName(pair.server, `${pair.name}#${n}`);
      if (taken.has(candidate)) continue;
      taken.add(candidate);
      names[i] = candidate;
      nextFree.set(base, n + 1);
      break;
    }
  }
  return names;
}

/**
 * The first n whose `{base}{n}` is too long and so ends in a hash of the pair's own original:
 * from there two pairs with the same base no longer share candidates, so what one took says
 * nothing of the other's. Below it the candidate is `{base}{n}` for every pair of that base.
 */
function firstHashed(base: string): number {
  // `base` is the `#`-ended name made safe; a hashed base never fits in any case.
  // `{base}{n}` fits while n has at most MAX_NAME - base.length digits.
  return base.length > MAX_NAME ? 2 : Math.max(2, 10 ** (MAX_NAME - base.length));
}

/** Listed copies of `{server, item}` entries renamed per `naming`, and public name → owner. */
export function namePublicItems<T extends { name: string }>(
  entries: readonly { server: string; item: T }[],
  naming: Naming,
): { listed: T[]; routes: Map<string, Owned> } {
  const seen = new Set<string>();
  // An upstream listing one name twice is listed once.
  const unique = entries.filter(({ server, item }) => {
    const key = `${server}\u0000${item.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const names = resolvePublicNames(
    unique.map(({ server, item }) => ({ server, name: item.name })),
    naming,
  );
  const routes = new Map<string, Owned>();
  const listed = unique.map(({ server, item }, i) => {
    const name = names[i] ?? item.name;
    routes.set(name, { server, name: item.name });
    return name === item.name ? item : { ...item, name };
  });
  return { listed, routes };
}

/** Code-unit order, not locale order, so the result is the same on every machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The URI an agent sees for `uri` of `server` when another server of the view lists the same URI. */
export function toRewrittenUri(server: string, uri: string): string {
  return `boternity:${encodeURIComponent(server)}:${uri}`;
}

/** The server and upstream URI inside a {@link toRewrittenUri} result; null for any other URI. */
export function parseRewrittenUri(uri: string): { server: string; uri: string } | null {
  const m = /^boternity:([^:]*):(.*)$/su.exec(uri);
  if (!m) return null;
  try {
    return { server: decodeURIComponent(m[1] ?? ''), uri: m[2] ?? '' };
  } catch {
    return null;
  }
}
