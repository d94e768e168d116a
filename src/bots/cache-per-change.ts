/**
 * A cache of the bot items listed for each scope, kept until the next bot change (created,
 * updated, deleted, skills): an unchanged listing costs no query (issue 8, `tools/list` on
 * every request). Validity is the change bus's last id, read before the query and again
 * after it, so a change published while a query runs is never hidden by its answer.
 * @module
 */
import type { EventBus } from '../bus/create-event-bus.js';

/** Scopes kept at most (a caller may name any slug on `/mcp/bots/{slug}`); past it the cache starts over. */
const MAX_KEYS = 1000;

/** A cached `load()` per key: the value kept is given back while no change was published since it was loaded. */
export function cachePerChange<T>(
  changes: Pick<EventBus<unknown>, 'lastId'>,
): (key: string, load: () => Promise<T>) => Promise<T> {
  const kept = new Map<string, { readonly at: number; readonly value: T }>();
  return async (key, load) => {
    const at = changes.lastId();
    const hit = kept.get(key);
    if (hit?.at === at) return hit.value;
    const value = await load();
    if (changes.lastId() === at) {
      if (kept.size >= MAX_KEYS) kept.clear();
      kept.set(key, { at, value });
    }
    return value;
  };
}
