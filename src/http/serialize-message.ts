import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Arrays shorter than this are serialized each time: caching them would cost more than it saves. */
const CACHED_LENGTH = 64;

/** A message as JSON: text, or (a large listing inside) UTF-8 parts that go out as they are. */
export type Serialized = string | readonly Buffer[];

/**
 * A serializer of outgoing messages that writes a large array in a result (a listing) from
 * bytes it keeps: each item's JSON, weakly, by item, and the whole listing's by array. A
 * `tools/list` is rebuilt per request from the same items (the view's tools, a few bot
 * tools), so its bytes are put together from cache instead of serialized, measured and
 * copied again. The bytes are what `JSON.stringify` gives. Shared by every session of an
 * endpoint.
 */
export function createMessageSerializer(): (message: JSONRPCMessage) => Serialized {
  const listings = new WeakMap<object, Buffer>();
  const items = new WeakMap<object, Buffer>();
  const COMMA = Buffer.from(',');
  const itemBytes = (item: unknown): Buffer => {
    if (item === null || typeof item !== 'object') return Buffer.from(JSON.stringify(item) ?? 'null');
    let bytes = items.get(item);
    if (bytes === undefined) {
      // Inside an array, what JSON cannot write stands as null.
      bytes = Buffer.from(JSON.stringify(item) ?? 'null');
      items.set(item, bytes);
    }
    return bytes;
  };
  const bytesOf = (array: unknown[]): Buffer => {
    let bytes = listings.get(array);
    if (bytes === undefined) {
      const parts: Buffer[] = [Buffer.from('[')];
      for (let i = 0; i < array.length; i++) {
        if (i > 0) parts.push(COMMA);
        parts.push(itemBytes(array[i]));
      }
      parts.push(Buffer.from(']'));
      bytes = Buffer.concat(parts);
      listings.set(array, bytes);
    }
    return bytes;
  };
  return (message) => {
    const { jsonrpc, id, result, ...rest } = message as { jsonrpc: string; id?: unknown; result?: unknown };
    const plain = id !== undefined && result && typeof result === 'object' && !Array.isArray(result);
    if (!plain || Object.keys(rest).length > 0) return JSON.stringify(message);
    const entries = Object.entries(result);
    if (!entries.some(([, v]) => Array.isArray(v) && v.length >= CACHED_LENGTH)) return JSON.stringify(message);
    const parts: Buffer[] = [];
    let text = `{"jsonrpc":${JSON.stringify(jsonrpc)},"id":${JSON.stringify(id)},"result":{`;
    let first = true;
    for (const [key, value] of entries) {
      const big = Array.isArray(value) && value.length >= CACHED_LENGTH;
      const json = big ? '' : JSON.stringify(value);
      if (json === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (!big) {
        text += json;
        continue;
      }
      parts.push(Buffer.from(text), bytesOf(value));
      text = '';
    }
    parts.push(Buffer.from(`${text}}}`));
    return parts;
  };
}

/** The text of a serialized message (for an SSE event, or a batch). */
export const textOf = (serialized: Serialized): string =>
  typeof serialized === 'string' ? serialized : Buffer.concat(serialized).toString('utf8');
