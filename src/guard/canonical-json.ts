/**
 * Canonical JSON for audit hashes (SPEC X7), view fingerprints (G5) and pin fingerprints (X5):
 * `JSON.stringify` with object keys sorted at every depth, written without recursion, so an
 * agent's deeply nested arguments or a server's deeply nested tool cannot overflow the
 * stack. For JSON values the text is exactly what `JSON.stringify(value, sortKeys)` gives, so
 * hashes are stable across versions; `keys: 'code-unit'` sorts every key by UTF-16 code unit
 * (integer-like keys too), the order pins have always been hashed in.
 * @module
 */
import { isJsonPlain, jsonString } from './json-string.js';

type Frame =
  | { readonly array: readonly unknown[]; index: number }
  | { readonly object: Record<string, unknown>; readonly keys: string[]; index: number; wrote: boolean };

/** What a value is written as: JSON text, or nothing (skipped in objects, `null` in arrays). */
function prepare(value: unknown, key: string): unknown {
  const json = value as { toJSON?: (key: string) => unknown } | null;
  return json !== null && typeof json === 'object' && typeof json.toJSON === 'function' ? json.toJSON(key) : value;
}

const INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isIndex = (key: string) => INDEX.test(key) && Number(key) < 2 ** 32 - 1;
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Keys in the order an object rebuilt from sorted entries enumerates them: integer-like
 * keys first, ascending (JS puts them there whatever the insertion order), then the rest
 * sorted by UTF-16 code unit.
 */
function sortedKeys(object: object, order: KeyOrder): string[] {
  const keys = Object.keys(object);
  if (order === 'code-unit') return keys.sort(byCodeUnit);
  let indexes = 0;
  while (indexes < keys.length && isIndex(keys[indexes] as string)) indexes += 1;
  return indexes === 0 ? keys.sort(byCodeUnit) : [...keys.slice(0, indexes), ...keys.slice(indexes).sort(byCodeUnit)];
}

/**
 * How object keys are ordered: `js`, as an object rebuilt from sorted entries enumerates them
 * (audit and view hashes); `code-unit`, all by UTF-16 code unit (pin fingerprints).
 */
export type KeyOrder = 'js' | 'code-unit';

const skipped = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * The canonical JSON text of `value`; undefined for a bare `undefined`, function or symbol.
 * Throws TypeError on a cycle or a BigInt, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown, keys: KeyOrder = 'js'): string | undefined {
  return writeCanonical(value, false, keys)?.[0];
}

/**
 * {@link canonicalJson} in pieces, for a hash fed piece by piece: each long plain text
 * ({@link isJsonPlain}) is a piece of its own, without its quotes (they end the piece before
 * it and begin the one after), so a 64 KiB tool result is neither copied into the JSON nor
 * flattened for hashing (issue 20). Odd indexes hold those texts (printable ASCII, so their
 * Latin-1 bytes are their UTF-8 ones); the pieces joined are {@link canonicalJson}'s text.
 */
export function canonicalJsonParts(value: unknown): string[] | undefined {
  return writeCanonical(value, true, 'js');
}

function writeCanonical(value: unknown, split: boolean, order: KeyOrder): string[] | undefined {
  const root = prepare(value, '');
  if (skipped(root)) return undefined;
  const parts: string[] = [];
  let out = '';
  const stack: Frame[] = [];
  const open = new Set<object>();

  /** Write a primitive, or open a container (its contents follow as the loop walks the stack). */
  const write = (item: unknown): void => {
    if (item === null || typeof item !== 'object') {
      if (typeof item === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
      if (split && typeof item === 'string' && isJsonPlain(item)) {
        parts.push(`${out}"`, item);
        out = '"';
        return;
      }
      // A long plain text (a 64 KiB tool result) needs no escaping pass: issue 20.
      out +=
        typeof item === 'string'
          ? jsonString(item)
          : typeof item === 'number' && !Number.isFinite(item)
            ? 'null'
            : (JSON.stringify(item) as string);
      return;
    }
    if (open.has(item)) throw new TypeError('Converting circular structure to JSON');
    open.add(item);
    if (Array.isArray(item)) {
      out += '[';
      stack.push({ array: item, index: 0 });
    } else {
      out += '{';
      stack.push({ object: item as Record<string, unknown>, keys: sortedKeys(item, order), index: 0, wrote: false });
    }
  };

  write(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if ('array' in frame) {
      if (frame.index >= frame.array.length) {
        out += ']';
        open.delete(frame.array);
        stack.pop();
        continue;
      }
      const i = frame.index++;
      if (i > 0) out += ',';
      const item = prepare(frame.array[i], String(i));
      if (skipped(item)) out += 'null';
      else write(item);
      continue;
    }
    if (frame.index >= frame.keys.length) {
      out += '}';
      open.delete(frame.object);
      stack.pop();
      continue;
    }
    const key = frame.keys[frame.index++] as string;
    const item = prepare(frame.object[key], key);
    if (skipped(item)) continue;
    if (frame.wrote) out += ',';
    frame.wrote = true;
    out += `${JSON.stringify(key)}:`;
    write(item);
  }
  parts.push(out);
  return parts;
}
