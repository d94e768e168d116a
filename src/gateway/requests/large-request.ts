/**
 * Whether a request's arguments are large (issue 17, ADR 022 §7): more than
 * {@link LARGE_REQUEST_CHARS} characters of strings and keys, told without serializing
 * them. A large request ties up a single-threaded upstream (parsing megabytes of JSON) for
 * as long as it takes: fewer of them go in at once than ordinary ones.
 * @module
 */

/** Characters of arguments from which a request is large (64 Ki, as the body budget's floor). */
export const LARGE_REQUEST_CHARS = 64 * 1024;
/** Values looked at before a request is counted large without looking further. */
const MAX_NODES = 10_000;

/** Whether `value` holds more than {@link LARGE_REQUEST_CHARS} characters (or too many values to count cheaply). */
export function isLargeRequest(value: unknown): boolean {
  let chars = 0;
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (++nodes > MAX_NODES) return true;
    const object = item !== null && typeof item === 'object';
    // One sum for every kind of value: a kind first met late (a number after thousands of
    // strings) finds the addition compiled, not a branch V8 never saw (ADR 050).
    chars += typeof item === 'string' ? item.length : object ? 0 : 8;
    if (object) {
      if (Array.isArray(item)) for (const element of item) stack.push(element);
      else
        for (const key in item) {
          chars += key.length;
          stack.push((item as Record<string, unknown>)[key]);
        }
    }
    if (chars > LARGE_REQUEST_CHARS) return true;
  }
  return false;
}
