/**
 * How deeply a JSON value nests, measured without recursion. Parsing (V8's `JSON.parse`) and
 * zod accept any depth, but what comes later recurses: `JSON.stringify` when an answer is
 * written overflows the stack at a few thousand levels. A server's catalog item or tool result
 * deeper than {@link MAX_JSON_DEPTH} is refused where it enters (X8), so nothing after it has
 * to be depth-safe by itself.
 * @module
 */

/**
 * The deepest nesting accepted from an upstream: a tool's schema nests a handful of levels, a
 * result a few dozen at most; stack trouble starts in the thousands.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects and arrays more than `max` levels deep (a bare object is one
 * level, `{a:{}}` two). Stops at the first path past `max`, so a hostile value costs at most
 * one walk of what lies within the bound.
 */
export function deeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  // Depth-first with an explicit stack of [container, its depth].
  const stack: [object, number][] = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [container, depth] = top;
    if (depth > max) return true;
    const children = Array.isArray(container) ? container : Object.values(container);
    for (const child of children as unknown[])
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
