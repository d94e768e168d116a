import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Arrays shorter than this are serialized each time: caching them would cost more than it saves. */
const CACHED_LENGTH = 64;

/** A message as JSON: text, or (a large listing inside) UTF-8 parts that go out as they are. */
export type Serialized = string | readonly Buffer[];

/**
 * A serializer of outgoing messages that writes a large array in a result (a listing of a
 * cached view: the same array object each time) once, as UTF-8 bytes, and sends those
 * bytes again with later answers that carry the same array: no serializing, measuring or
 * copying of the listing per request. The bytes are what `JSON.stringify` gives. Shared by
 * every session of an endpoint; the arrays are held weakly.
 */
export function createMessageSerializer(): (message: JSONRPCMessage) => Serialized {
  const cached = new WeakMap<object, Buffer>();
  const bytesOf = (array: unknown[]): Buffer => {
    let bytes = cached.get(array);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(array));
      cached.set(array, bytes);
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
