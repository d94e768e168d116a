import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { NATIVE_SCAN_LENGTH } from '../../guard/is-plain-ascii.js';
import { isJsonPlain } from '../../guard/json-string.js';

/** Arrays shorter than this are serialized each time: caching them would cost more than it saves. */
const CACHED_LENGTH = 64;

/**
 * A message as JSON: text, or parts that go out as they are: UTF-8 bytes, and texts of plain
 * ASCII (a tool result's long text), written as Latin-1 — their bytes, one per character.
 */
export type Serialized = string | readonly (Buffer | string)[];

/**
 * A serializer of outgoing messages that writes a large array in a result (a listing) from
 * bytes it keeps: each item's JSON, weakly, by item, and the whole listing's by array. A
 * `tools/list` is rebuilt per request from the same items (the view's tools, a few bot
 * tools), so its bytes are put together from cache instead of serialized, measured and
 * copied again. A tool result's long plain text goes out as its own bytes, not escaped
 * (issue 20). The bytes are what `JSON.stringify` gives. Shared by every session of an
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
    if (!entries.some(([key, v]) => (Array.isArray(v) && v.length >= CACHED_LENGTH) || hasLongText(key, v)))
      return JSON.stringify(message);
    const parts: (Buffer | string)[] = [];
    let text = `{"jsonrpc":${JSON.stringify(jsonrpc)},"id":${JSON.stringify(id)},"result":{`;
    let first = true;
    for (const [key, value] of entries) {
      const big = Array.isArray(value) && value.length >= CACHED_LENGTH;
      const long = !big && hasLongText(key, value);
      const json = big || long ? '' : JSON.stringify(value);
      if (json === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (long) {
        text = writeContent(value as unknown[], text, parts);
        continue;
      }
      if (!big) {
        text += json;
        continue;
      }
      parts.push(Buffer.from(text), bytesOf(value));
      text = '';
    }
    // Long texts that need escaping, and no listing: the text as it is.
    if (parts.length === 0) return `${text}}}`;
    parts.push(Buffer.from(`${text}}}`));
    return parts;
  };
}

/** A tool result's `content` with a text block on the long-text path ({@link NATIVE_SCAN_LENGTH}, ADR 050). */
function hasLongText(key: string, value: unknown): boolean {
  return (
    key === 'content' &&
    Array.isArray(value) &&
    value.some((block) => typeof block?.text === 'string' && block.text.length >= NATIVE_SCAN_LENGTH)
  );
}

/**
 * A tool result's `content` blocks as `JSON.stringify` writes them, appended to `text`; each
 * long plain text block ({@link isJsonPlain}: what a 64 KiB result relayed from an upstream
 * usually is) goes into `parts` as its own bytes, copied rather than escaped and encoded
 * (issue 20). Returns the text that follows the last part. Keys in `JSON.stringify`'s order.
 */
function writeContent(content: unknown[], before: string, parts: (Buffer | string)[]): string {
  let text = `${before}[`;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (i > 0) text += ',';
    if (block === null || typeof block !== 'object' || Array.isArray(block) || 'toJSON' in block) {
      text += JSON.stringify(block) ?? 'null';
      continue;
    }
    let first = true;
    text += '{';
    for (const [key, value] of Object.entries(block)) {
      const plain = key === 'text' && typeof value === 'string' && isJsonPlain(value);
      const json = plain ? '' : JSON.stringify(value);
      if (json === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (!plain) {
        text += json;
        continue;
      }
      // ASCII: its Latin-1 bytes are its UTF-8 ones.
      // Plain ASCII: written as it lies (no copy into a Buffer first, no escaping).
      parts.push(Buffer.from(`${text}"`), value);
      text = '"';
    }
    text += '}';
  }
  return `${text}]`;
}

/** The text of a serialized message (for an SSE event, or a batch). */
export const textOf = (serialized: Serialized): string =>
  typeof serialized === 'string'
    ? serialized
    : serialized.map((part) => (typeof part === 'string' ? part : part.toString('utf8'))).join('');

/**
 * A serialized message as the bytes of one body. A text is encoded as UTF-8; parts are put
 * one after the other in one buffer, a text part as Latin-1 (plain ASCII: a byte a character),
 * copied once. One buffer and one write for every answer, short or 64 KiB: the same code runs
 * for both and stays compiled (ADR 050), where a write a part cost a short answer three.
 */
export function bodyBytes(serialized: Serialized): Buffer {
  if (typeof serialized === 'string') return Buffer.from(serialized);
  let length = 0;
  for (const part of serialized) length += part.length;
  const body = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of serialized) at += typeof part === 'string' ? body.write(part, at, 'latin1') : part.copy(body, at);
  return body;
}
